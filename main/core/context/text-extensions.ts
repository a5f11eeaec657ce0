import path from 'node:path';

/**
 * Extensions an instruction file or `@` include may have (Claude Code's list of text and code
 * formats); any other extension (`.png`, `.pdf`, a trailing dot) is skipped even when the file holds
 * text, so both programs load the same files. A name without an extension is allowed.
 */
const TEXT_EXTENSIONS = new Set(
  (
    'md txt text json yaml yml toml xml csv html htm css scss sass less js ts tsx jsx mjs cjs mts cts ' +
    'py pyi pyw rb erb rake go rs java kt kts scala c cpp cc cxx h hpp hxx cs swift sh bash zsh fish ps1 ' +
    'bat cmd env ini cfg conf config properties sql graphql gql proto vue svelte astro ejs hbs pug jade ' +
    'php pl pm lua r dart ex exs erl hrl clj cljs cljc edn hs lhs elm ml mli f f90 f95 for cmake make ' +
    'makefile gradle sbt rst adoc asciidoc org tex latex lock log diff patch'
  )
    .split(' ')
    .map((e) => `.${e}`),
);

export function isTextInstructionFile(file: string): boolean {
  const ext = path.extname(file).toLowerCase();
  return ext === '' || TEXT_EXTENSIONS.has(ext);
}
