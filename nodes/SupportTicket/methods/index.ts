export * as listSearch from './listSearch';
