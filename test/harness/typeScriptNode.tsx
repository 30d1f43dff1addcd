/** `node` arguments that let a process a test starts load the TypeScript sources, as jest does. */
export const LOAD_TYPESCRIPT = ['--require', require.resolve('./register.js')];
