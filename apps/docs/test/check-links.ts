// Crawls a served site from its home page with linkinator: every internal link, anchor (`#id` on the page it
// points to), image and asset must resolve. Links to other hosts are collected, not fetched (no network).
import { LinkChecker, LinkState } from 'linkinator';

/** What a crawl found. */
export interface LinkReport {
  /** `url (on page): why` for each link that does not resolve. */
  readonly broken: string[];
  /** The paths of the pages and files reached (without a trailing slash). */
  readonly reached: Set<string>;
  /** Links to other hosts. */
  readonly external: Set<string>;
  /** How many distinct URLs were checked. */
  readonly checked: number;
}

/** Crawls `base` (`http://127.0.0.1:<port>`) from `/`. */
export async function checkLinks(base: string): Promise<LinkReport> {
  const external = new Set<string>();
  const result = await new LinkChecker().check({
    path: `${base}/`,
    recurse: true,
    checkFragments: true,
    cleanUrls: true,
    concurrency: 8,
    timeout: 60_000,
    linksToSkip: async (link) => {
      if (link.startsWith(base)) return false;
      external.add(link);
      return true;
    },
  });
  const broken = result.links
    .filter((link) => link.state === LinkState.BROKEN)
    .map((link) =>
      `${link.url} (on ${link.parent}): ${link.status ?? ''} ${link.failureDetails?.map(String).join('; ') ?? ''}`.trim(),
    );
  const reached = new Set(
    result.links
      .filter((link) => link.state === LinkState.OK)
      .map((link) => decodeURIComponent(new URL(link.url).pathname).replace(/\/$/, '')),
  );
  return { broken, reached, external, checked: result.links.length };
}
