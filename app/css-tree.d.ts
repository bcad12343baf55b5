// css-tree's entry points for its parser, walker and helpers alone: the package's main entry also builds the lexer
// from mdn-data, which the stylesheet subsetting never uses (~50 ms and ~3 MB more at server start).
// @types/css-tree describes them only as parts of the main entry.
declare module "css-tree/parser" {
  const parse: typeof import("css-tree").parse;
  export default parse;
}

declare module "css-tree/walker" {
  const walk: typeof import("css-tree").walk;
  export default walk;
}

declare module "css-tree/utils" {
  export const ident: typeof import("css-tree").ident;
}
