/**
 * The rich-text editor's output is HTML that other pages render, so it keeps only formatting: a short
 * list of tags, `href` on links (http, https, mailto, relative) and nothing else. Scripts, styles,
 * frames and event handlers go, with their content; unknown tags are unwrapped to their text.
 */
const ALLOWED_TAGS = new Set([
  'p', 'div', 'br', 'b', 'strong', 'i', 'em', 'u', 's', 'strike', 'ul', 'ol', 'li', 'a', 'h1', 'h2', 'h3', 'h4',
  'blockquote', 'pre', 'code', 'span', 'sub', 'sup', 'hr',
]);
const DROPPED_TAGS = new Set(['script', 'style', 'iframe', 'object', 'embed', 'template', 'noscript', 'link', 'meta', 'svg', 'math', 'form', 'input', 'button', 'textarea', 'select']);
const SAFE_HREF = /^(?:https?:|mailto:|\/|#|\.{0,2}\/)/i;

function cleanChildren(source: Node, target: Node, document: Document): void {
  source.childNodes.forEach((child) => {
    if (child.nodeType === 3) {
      target.appendChild(document.createTextNode(child.textContent ?? ''));
      return;
    }
    if (child.nodeType !== 1) return;
    const element = child as Element;
    const tag = element.tagName.toLowerCase();
    if (DROPPED_TAGS.has(tag)) return;
    if (!ALLOWED_TAGS.has(tag)) {
      cleanChildren(element, target, document);
      return;
    }
    const copy = document.createElement(tag);
    if (tag === 'a') {
      const href = (element.getAttribute('href') ?? '').trim();
      if (SAFE_HREF.test(href) && !/^\s*javascript:/i.test(href)) {
        copy.setAttribute('href', href);
        copy.setAttribute('target', '_blank');
        copy.setAttribute('rel', 'noopener noreferrer');
      }
    }
    cleanChildren(element, copy, document);
    target.appendChild(copy);
  });
}

export function sanitizeHtml(html: string): string {
  if (!html) return '';
  const parsed = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  const output = parsed.createElement('div');
  cleanChildren(parsed.body, output, parsed);
  const result = output.innerHTML;
  // An editor left with only empty paragraphs or line breaks holds no content ("editor required").
  return output.textContent?.trim() === '' && !output.querySelector('hr') ? '' : result;
}
