// Pulls the TypeScript code blocks out of Markdown files and out of TSDoc `@example` tags, keeping each
// block's source line so a compile error can be reported where the reader sees it.

/**
 * @typedef {{ kind: 'compile' | 'skip' | 'continues' | 'run', run?: true, needs?: string[], reason?: string, prelude?: { line: number, code: string } }} BlockMarker
 * @typedef {{ file: string, line: number, code: string, marker: BlockMarker, source: 'readme' | 'tsdoc', symbol?: string, expected?: string, epilogue?: { line: number, code: string } }} DocBlock
 */

const fence = /^(\s*)```(ts|typescript)\s*$/;
const marker =
  /^\s*<!--\s*doc-example:\s*(compile|skip|continues|run)\b(\s+run\b)?\s*[-—:]?\s*(.*?)\s*(-->)?\s*$/;

/**
 * The ```ts / ```typescript blocks of a Markdown file. A block may be marked by an HTML comment on the closest
 * non-blank line(s) above its fence:
 * - `<!-- doc-example: skip — reason -->`: not compiled (the reason is required);
 * - `<!-- doc-example: continues -->`: compiled as one module with the block before it;
 * - `<!-- doc-example: run -->`: compiled, and run by `runDocModule` (run.mjs); when a ```text block follows
 *   (blank lines and one line of prose ending in `:` may come between), it is what the block must print;
 * - `<!-- doc-example: continues run -->`: joins the block before it, and the module they make is run (a
 *   walkthrough in steps, each showing what it prints);
 * - a `run` marker's text `needs NAME[, NAME]` names environment variables the run needs (a database URL):
 *   without them the run is skipped, visibly;
 * - `<!-- doc-example: compile -->`: compiled (the default; useful with a prelude).
 * When the comment spans several lines, the lines after the first are a hidden prelude: code put before
 * the block (declarations of what the snippet takes as given), compiled and run with it.
 *
 * @param {string} text - the Markdown source.
 * @param {string} file - the path reported in errors.
 * @returns {DocBlock[]}
 * @example
 * extractMarkdownBlocks('```ts\nconst one = 1;\n```\n', 'README.md');
 * // [{ file: 'README.md', line: 2, code: 'const one = 1;\n', marker: { kind: 'compile' }, source: 'readme' }]
 */
export function extractMarkdownBlocks(text, file) {
  const lines = text.split('\n');
  /** @type {DocBlock[]} */
  const blocks = [];
  for (let index = 0; index < lines.length; index++) {
    const open = fence.exec(lines[index] ?? '');
    if (!open) continue;
    const indent = open[1]?.length ?? 0;
    const body = [];
    let end = index + 1;
    while (end < lines.length && !/^\s*```\s*$/.test(lines[end] ?? ''))
      body.push((lines[end++] ?? '').slice(indent));
    if (end >= lines.length) throw new Error(`${file}:${index + 1}: unclosed \`\`\`${open[2]} block`);
    const expected = outputBelow(lines, end);
    const epilogue = epilogueBelow(lines, end, expected !== undefined);
    blocks.push({
      file,
      line: index + 2,
      code: `${body.join('\n')}\n`,
      marker: markerAbove(lines, index, file),
      source: 'readme',
      ...(expected === undefined ? {} : { expected }),
      ...(epilogue === undefined ? {} : { epilogue }),
    });
    index = end;
  }
  return blocks;
}

/**
 * The ```text block right after the block closed at `closeIndex` (blank lines and one line of prose
 * ending in `:` may come between): what a `run` block prints.
 * @param {string[]} lines
 * @param {number} closeIndex
 * @returns {string | undefined}
 */
function outputBelow(lines, closeIndex) {
  let next = closeIndex + 1;
  const skipBlank = () => {
    while (next < lines.length && (lines[next] ?? '').trim() === '') next++;
  };
  skipBlank();
  if (/:\s*$/.test(lines[next] ?? '') && !/^\s*```/.test(lines[next] ?? '')) {
    next++;
    skipBlank();
  }
  if (!/^\s*```text\s*$/.test(lines[next] ?? '')) return undefined;
  const body = [];
  for (let at = next + 1; at < lines.length && !/^\s*```\s*$/.test(lines[at] ?? ''); at++)
    body.push(lines[at]);
  return `${body.join('\n')}\n`;
}

/**
 * The hidden epilogue of the block closed at `closeIndex`: a `<!-- doc-example: finally` comment after
 * it (after its ```text output when it has one), whose lines up to `-->` are code run after the block —
 * closing what a hidden prelude opened (a loopback server, a database pool).
 * @param {string[]} lines
 * @param {number} closeIndex
 * @param {boolean} hasOutput
 * @returns {{ line: number, code: string } | undefined}
 */
function epilogueBelow(lines, closeIndex, hasOutput) {
  let next = closeIndex + 1;
  if (hasOutput) {
    while (next < lines.length && !/^\s*```text\s*$/.test(lines[next] ?? '')) next++;
    next++;
    while (next < lines.length && !/^\s*```\s*$/.test(lines[next] ?? '')) next++;
    next++;
  }
  while (next < lines.length && (lines[next] ?? '').trim() === '') next++;
  if (!/^\s*<!--\s*doc-example:\s*finally\s*$/.test(lines[next] ?? '')) return undefined;
  const body = [];
  for (let at = next + 1; at < lines.length && !/^\s*-->\s*$/.test(lines[at] ?? ''); at++)
    body.push(lines[at] ?? '');
  return { line: next + 2, code: `${body.join('\n')}\n` };
}

/**
 * The marker comment for the fence at `fenceIndex`, or `{ kind: 'compile' }` when there is none.
 * @param {string[]} lines
 * @param {number} fenceIndex
 * @param {string} file
 * @returns {BlockMarker}
 */
function markerAbove(lines, fenceIndex, file) {
  let close = fenceIndex - 1;
  while (close >= 0 && (lines[close] ?? '').trim() === '') close--;
  if (!/-->\s*$/.test(lines[close] ?? '')) return { kind: 'compile' };
  let open = close;
  while (open >= 0 && !(lines[open] ?? '').includes('<!--')) open--;
  const found = marker.exec(lines[open] ?? '');
  if (!found) return { kind: 'compile' };
  const kind = /** @type {BlockMarker['kind']} */ (found[1]);
  const runs = kind === 'run' || (kind === 'continues' && found[2] !== undefined);
  if (found[2] !== undefined && kind !== 'continues')
    throw new Error(`${file}:${open + 1}: only a 'continues' block takes 'run' after its kind`);
  const reason = found[3] ?? '';
  if (kind === 'skip' && reason.length < 8)
    throw new Error(
      `${file}:${open + 1}: a doc-example skip needs its reason (\`<!-- doc-example: skip — why -->\`)`,
    );
  const needs = runs ? /\bneeds\s+([A-Z][A-Z0-9_]*(?:\s*,\s*[A-Z][A-Z0-9_]*)*)/.exec(reason)?.[1] : undefined;
  /** @type {BlockMarker} */
  const result = reason ? { kind, reason } : { kind };
  if (runs) result.run = true;
  if (needs) result.needs = needs.split(',').map((name) => name.trim());
  if (open < close) {
    const prelude = lines.slice(open + 1, close + 1);
    prelude[prelude.length - 1] = (prelude.at(-1) ?? '').replace(/\s*-->\s*$/, '');
    if (prelude.at(-1) === '') prelude.pop();
    result.prelude = { line: open + 2, code: `${prelude.join('\n')}\n` };
  }
  return result;
}

/**
 * The `@example` blocks of the TSDoc comments in a TypeScript source file. An example is the text after
 * `@example` up to the next tag or the end of the comment; when it holds a ```ts fence only the fenced code
 * is taken, otherwise the whole text is code.
 *
 * @param {string} text - the TypeScript source.
 * @param {string} file - the path reported in errors.
 * @returns {DocBlock[]}
 * @example
 * const source = '/**\n * Doubles.\n * @example\n * double(2); // 4\n *\/\nexport const double = (n: number) => n * 2;\n';
 * extractTsdocExamples(source, 'double.ts')[0]?.code; // 'double(2); // 4\n'
 */
export function extractTsdocExamples(text, file) {
  const lines = text.split('\n');
  /** @type {DocBlock[]} */
  const blocks = [];
  let inComment = false;
  /** @type {{ line: number, text: string }[] | undefined} */
  let example;
  const flush = (/** @type {number} */ commentEnd) => {
    if (example) blocks.push(...exampleBlocks(example, file, symbolAfter(lines, commentEnd)));
    example = undefined;
  };
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index] ?? '';
    if (!inComment) {
      if (/^\s*\/\*\*/.test(raw) && !/\*\/\s*$/.test(raw.replace(/^\s*\/\*\*/, ''))) inComment = true;
      continue;
    }
    if (/^\s*\*\/\s*$/.test(raw) || /\*\/\s*$/.test(raw)) {
      inComment = false;
      flush(index);
      continue;
    }
    const content = raw.replace(/^\s*\* ?/, '');
    if (/^@example\b/.test(content)) {
      flush(index);
      example = [];
      continue;
    }
    if (example && /^@\w+/.test(content) && !fenceOpen(example)) {
      flush(index);
      continue;
    }
    example?.push({ line: index + 1, text: content });
  }
  return blocks;
}

/** @param {{ text: string }[]} example */
function fenceOpen(example) {
  return example.filter((entry) => /^\s*```/.test(entry.text)).length % 2 === 1;
}

/**
 * The name declared after a doc comment (for messages and the baseline), or undefined.
 * @param {string[]} lines
 * @param {number} commentEnd
 */
function symbolAfter(lines, commentEnd) {
  const declaration = lines[commentEnd + 1] ?? '';
  return (
    /(?:function\*?|class|interface|type|const|let|enum)\s+([A-Za-z_$][\w$]*)/.exec(declaration)?.[1] ??
    /^\s*(?:(?:public|private|protected|static|readonly|async|override|get|set)\s+)*\*?([A-Za-z_$][\w$]*)\s*[(<:?]/.exec(
      declaration,
    )?.[1]
  );
}

/**
 * @param {{ line: number, text: string }[]} example
 * @param {string} file
 * @param {string | undefined} symbol
 * @returns {DocBlock[]}
 */
function exampleBlocks(example, file, symbol) {
  const named = symbol ? { symbol } : {};
  const fences = example.flatMap((entry, index) => (/^\s*```/.test(entry.text) ? [index] : []));
  /** @type {{ line: number, text: string }[][]} */
  const bodies = [];
  if (fences.length >= 2) {
    for (let at = 0; at + 1 < fences.length; at += 2) {
      const open = example[fences[at] ?? 0]?.text ?? '';
      if (!/^\s*```(ts|typescript)?\s*$/.test(open)) continue;
      bodies.push(example.slice((fences[at] ?? 0) + 1, fences[at + 1]));
    }
  } else {
    const body = [...example];
    while (body.length > 0 && (body[0]?.text.trim() ?? '') === '') body.shift();
    while (body.length > 0 && (body.at(-1)?.text.trim() ?? '') === '') body.pop();
    if (body.length > 0) bodies.push(body);
  }
  return bodies
    .filter((body) => body.some((entry) => entry.text.trim() !== ''))
    .map((body) => ({
      file,
      line: body[0]?.line ?? 0,
      code: `${body.map((entry) => entry.text).join('\n')}\n`,
      marker: { kind: 'compile' },
      source: 'tsdoc',
      ...named,
    }));
}
