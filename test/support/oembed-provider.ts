/**
 * A fake oEmbed provider on 127.0.0.1 for tests: pages that announce their JSON endpoint by discovery
 * (`/video`, `/photo`, `/evil`, `/broken`), a page without one (`/plain`), and the endpoint itself.
 * Every request is recorded in `hits`, so a test can tell whether the proxy asked at all.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Provider {
  base: string;
  hits: string[];
  close(): Promise<void>;
}

export async function startProvider(): Promise<Provider> {
  const hits: string[] = [];
  let base = '';
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', base);
    hits.push(url.pathname + url.search);
    const page = (endpoint: string) => {
      res.setHeader('Content-Type', 'text/html');
      res.end(
        `<!doctype html><html><head><title>x</title><link rel="alternate" type="application/json+oembed" href="${base}${endpoint}&amp;format=json"></head><body>hi</body></html>`,
      );
    };
    const json = (body: unknown, status = 200) => {
      res.statusCode = status;
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify(body));
    };
    switch (url.pathname) {
      case '/video':
        return page(`/oembed?kind=video&url=${encodeURIComponent(`${base}/video`)}`);
      case '/photo':
        return page(`/oembed?kind=photo&url=${encodeURIComponent(`${base}/photo`)}`);
      case '/evil':
        return page(`/oembed?kind=evil&url=${encodeURIComponent(`${base}/evil`)}`);
      case '/broken':
        return page(`/oembed?kind=broken&url=${encodeURIComponent(`${base}/broken`)}`);
      case '/plain':
        res.setHeader('Content-Type', 'text/html');
        return res.end('<html><head></head><body>no oEmbed here</body></html>');
      case '/oembed': {
        const common = {
          version: '1.0',
          provider_name: 'Tube',
          title: 'A "clip" & more',
          author_name: 'Someone',
          maxwidth: url.searchParams.get('maxwidth'),
          maxheight: url.searchParams.get('maxheight'),
        };
        switch (url.searchParams.get('kind')) {
          case 'video':
            return json({
              ...common,
              type: 'video',
              width: 480,
              height: 270,
              html: '<iframe width="480" height="270" src="https://player.example/v/1" frameborder="0" onload="steal()"></iframe><script>steal()</script>',
            });
          case 'photo':
            return json({ ...common, type: 'photo', url: 'https://img.example/p.jpg', width: 300, height: 200 });
          case 'evil':
            return json({ ...common, type: 'rich', html: '<script>alert(document.cookie)</script><img src=x onerror=alert(1)>' });
          default:
            return json({ code: 'nope' }, 404);
        }
      }
      default:
        res.statusCode = 404;
        return res.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, hits, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
