// Lets plain `tsc` type-check .ts files that import .astro components (the component tests);
// `astro check` resolves the components themselves and does not need this.
declare module '*.astro' {
	const Component: import('astro/runtime/server/index.js').AstroComponentFactory;
	export default Component;
}
