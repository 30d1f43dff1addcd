// Kept only for bench/ (being rewritten elsewhere), which imports addNodeTypes from here; tests import it from packageTypes.
export { addNodeTypes } from './packageTypes';
