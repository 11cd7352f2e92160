// Which documentation blocks make one module: a block and the `continues` blocks after it. The checker
// compiles each module as one file; the runner runs each module that has a `run` block as one program.

/**
 * Blocks grouped into modules: each block alone, except that a `continues` block joins the previous group
 * of the same file. Skipped blocks are left out.
 *
 * @param {import('./extract.mjs').DocBlock[]} blocks
 * @returns {import('./extract.mjs').DocBlock[][]}
 * @example
 * docModules(extractMarkdownBlocks(tutorial, 'apps/docs/src/tutorials/first-graph.md'))
 *   .filter((module) => module.some((block) => block.marker.run)); // the programs it runs
 */
export function docModules(blocks) {
  /** @type {import('./extract.mjs').DocBlock[][]} */
  const groups = [];
  for (const block of blocks) {
    if (block.marker.kind === 'skip') continue;
    const last = groups.at(-1);
    if (block.marker.kind === 'continues') {
      if (!last || last[0]?.file !== block.file)
        throw new Error(`${block.file}:${block.line}: a 'continues' block needs a compiled block before it`);
      last.push(block);
    } else groups.push([block]);
  }
  return groups;
}
