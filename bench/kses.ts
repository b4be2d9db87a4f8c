/**
 * The HTML filter's cost (libs/posts/kses.ts), in CPU time per call: a 10 KB post of blocks, a 1 KB
 * one, a title with markup and one without, each the median of 15 rounds. Run by `npm run bench`
 * (BENCH_ONLY=kses runs only it); the create rows of the endpoint table (bench/posts.ts) send the same
 * 10 KB post as an author, whose writes the filter sees.
 */
import { kses, ksesTitle } from '#libs/posts/kses';

/** Block content of about `bytes` characters: paragraphs with links, emphasis and references, and images with a style. */
export function blockPost(bytes: number): string {
  let post = '';
  for (let i = 0; post.length < bytes; i++) {
    post +=
      i % 4 === 3
        ? `<!-- wp:image {"id":${i},"sizeSlug":"large"} -->\n<figure class="wp-block-image size-large"><img src="https://example.org/wp-content/uploads/${i}.jpg" alt="Image ${i}" class="wp-image-${i}" style="border-radius:4px"/></figure>\n<!-- /wp:image -->\n`
        : `<!-- wp:paragraph -->\n<p>Paragraph ${i} with <strong>bold</strong>, <em>emphasis</em> and <a href="https://example.org/p/${i}" target="_blank" rel="noopener">a link</a> &amp; a reference. The river festival opens at the old market with music, a night walk and workshops.</p>\n<!-- /wp:paragraph -->\n`;
  }
  return post;
}

const ROUNDS = 15;

/** Median CPU microseconds per call of `f`, over ROUNDS rounds of `calls` calls. */
function cpuMicros(f: () => unknown, calls: number): number {
  for (let i = 0; i < calls; i++) f();
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const start = process.cpuUsage();
    for (let i = 0; i < calls; i++) f();
    const used = process.cpuUsage(start);
    rounds.push((used.user + used.system) / calls);
  }
  return Math.round(rounds.sort((a, b) => a - b)[ROUNDS >> 1] * 10) / 10;
}

export function runKsesBench(): void {
  const post10 = blockPost(10 * 1024);
  const post1 = blockPost(1024);
  const rows = [
    { input: `post content, ${post10.length} characters of blocks`, 'µs/call': cpuMicros(() => kses(post10), 40) },
    { input: `post content, ${post1.length} characters of blocks`, 'µs/call': cpuMicros(() => kses(post1), 200) },
    { input: 'title with markup', 'µs/call': cpuMicros(() => ksesTitle('The <em>river</em> festival &amp; <b>night</b> market'), 2000) },
    { input: 'title without markup', 'µs/call': cpuMicros(() => ksesTitle('The river festival and night market'), 20000) },
  ];
  console.log('HTML filter (kses), CPU time per call:');
  console.table(rows);
}
