import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { cookieLanguage, withFirstPaint, withSiteName } from '../../../src/server/http/first-paint.js';

/** The server's part of a page's first view: the reader's language from the cookie, the view put into the page. */

const HTML = '<!doctype html>\n<html lang="zh-CN">\n  <head>\n    <title>Chidao Survey</title>\n  </head>\n  <body>\n    <div id="root"></div>\n  </body>\n</html>';

function requestWith(cookie?: string): FastifyRequest {
  return { headers: cookie === undefined ? {} : { cookie } } as FastifyRequest;
}

describe('first view in the page', () => {
  it('reads the language from the think-lang cookie among others, else the default', () => {
    expect(cookieLanguage(requestWith('a=1; think-lang=en; b=2'))).toBe('en');
    expect(cookieLanguage(requestWith('think-lang=zh-cn'))).toBe('zh-cn');
    expect(cookieLanguage(requestWith('think-lang=fr'))).toBe('zh-cn');
    expect(cookieLanguage(requestWith())).toBe('zh-cn');
  });

  it('puts the view into the root, inert, under its title and language, taking `$` and `<` as text', () => {
    const page = withFirstPaint(HTML, { html: '<h1>Pay $& more $1</h1>', title: 'Login <$&>' }, 'en');
    expect(page).toContain('<html lang="en">');
    expect(page).toContain('<title>Login &lt;$&amp;&gt;</title>');
    expect(page).toContain('<div id="root"><div class="first-paint" inert><h1>Pay $& more $1</h1></div></div>');
    // A view without a title keeps the page's own.
    expect(withFirstPaint(HTML, { html: '<p>x</p>', title: '' }, 'zh-cn')).toContain('<title>Chidao Survey</title>');
  });

  it('writes the site name into the page, as its title and its application name, taking `"`, `<` and `$` as text', () => {
    const page = withSiteName(HTML, ' Panel "One" <b>$&</b> ');
    expect(page).toContain('<title>Panel "One" &lt;b&gt;$&amp;&lt;/b&gt;</title>');
    expect(page).toContain('<meta name="application-name" content="Panel &quot;One&quot; &lt;b&gt;$&amp;&lt;/b&gt;" />\n</head>');
    // no name set: the page as built
    expect(withSiteName(HTML, '  ')).toBe(HTML);
  });
});
