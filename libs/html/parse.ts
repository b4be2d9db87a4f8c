/**
 * HTML read as browsers read it: parse5 implements the HTML standard's tokenizer and tree
 * construction (implied and misnested tags, raw text of script and style, `<noscript>` with scripting
 * on, foreign SVG and MathML content, comments ending at `-->` or `--!>`). The rest of the service reads
 * markup through these helpers: the HTML filter, oEmbed discovery and sanitising, URL details.
 */
import { Parser, defaultTreeAdapter as tree, html, parse, type DefaultTreeAdapterMap } from 'parse5';

export type HtmlNode = DefaultTreeAdapterMap['node'];
export type HtmlChild = DefaultTreeAdapterMap['childNode'];
export type HtmlParent = DefaultTreeAdapterMap['parentNode'];
export type HtmlElement = DefaultTreeAdapterMap['element'];
export type HtmlDocument = DefaultTreeAdapterMap['document'];

export const HTML_NAMESPACE = html.NS.HTML;
export const isElement = (n: HtmlNode): n is HtmlElement => tree.isElementNode(n);
export const isText = (n: HtmlNode): n is DefaultTreeAdapterMap['textNode'] => tree.isTextNode(n);
export const isComment = (n: HtmlNode): n is DefaultTreeAdapterMap['commentNode'] => tree.isCommentNode(n);

/**
 * How deep elements may nest. The standard's tree construction looks through the open elements for
 * each new one, so the cost of nesting grows with its square: 16,000 nested `<div>`s take seconds.
 * Browsers stop nesting at 512 too (Chromium); deeper markup is refused (TooDeepError).
 */
export const MAX_NESTING = 512;

export class TooDeepError extends Error {
  constructor() {
    super(`elements nested more than ${MAX_NESTING} deep`);
    this.name = 'TooDeepError';
  }
}

function checkDepth(parent: HtmlParent): void {
  let depth = 1;
  for (let p: HtmlParent | null = parent; p; p = 'parentNode' in p ? p.parentNode : null) if (++depth > MAX_NESTING) throw new TooDeepError();
}

/** The standard tree, refusing nesting past MAX_NESTING as elements are attached. */
const boundedTree: typeof tree = {
  ...tree,
  appendChild(parent, node) {
    if (isElement(node)) checkDepth(parent);
    tree.appendChild(parent, node);
  },
  insertBefore(parent, node, reference) {
    if (isElement(node)) checkDepth(parent);
    tree.insertBefore(parent, node, reference);
  },
};

/** The context fragments are parsed in: the inside of a `<div>`, where post content is shown. */
const FRAGMENT_CONTEXT = tree.createElement('div', html.NS.HTML, []);

/**
 * Markup parsed as the inside of an element of a page (innerHTML). Throws TooDeepError.
 *
 * parse5's `parseFragment` parses into a root element and then moves its children to the fragment one
 * by one, each move taking the first child out of the array (a splice that shifts all the others): the
 * square of the number of top-level nodes, 12 s of CPU for 1.3 MB of `<i>x</i>`. The same parser is run
 * here and the children are handed over whole.
 */
export function parseHtmlFragment(markup: string): DefaultTreeAdapterMap['documentFragment'] {
  const parser = Parser.getFragmentParser(FRAGMENT_CONTEXT, { treeAdapter: boundedTree });
  parser.tokenizer.write(markup, true);
  const root = tree.getFirstChild(parser.document) as HtmlElement;
  const fragment = tree.createDocumentFragment();
  fragment.childNodes = root.childNodes;
  root.childNodes = [];
  for (const child of fragment.childNodes) child.parentNode = fragment;
  return fragment;
}

/** A whole page. Throws TooDeepError. */
export function parseHtmlDocument(markup: string): HtmlDocument {
  return parse(markup, { treeAdapter: boundedTree });
}

/** The children of a node; a `<template>`'s are its content, as the parser keeps them apart. */
export function childrenOf(node: HtmlParent): HtmlChild[] {
  return 'content' in node ? node.content.childNodes : node.childNodes;
}

/**
 * The elements under `root` in document order, without going into the elements `skip` names (nor
 * into template contents). Walked with a stack of its own, so any depth of nesting is read.
 */
export function* elementsOf(root: HtmlParent, skip: ReadonlySet<string> = new Set()): Generator<HtmlElement> {
  const stack: HtmlChild[] = [...root.childNodes].reverse();
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (!isElement(node)) continue;
    yield node;
    if (!skip.has(node.tagName)) for (let i = node.childNodes.length - 1; i >= 0; i--) stack.push(node.childNodes[i]);
  }
}

/** An attribute's value (entities decoded), or undefined. */
export function attributeOf(el: HtmlElement, name: string): string | undefined {
  return el.attrs.find((a) => a.name === name && !a.namespace)?.value;
}

/** The text inside an element (its descendants' text, in order). */
export function textOf(el: HtmlElement): string {
  let text = '';
  const stack: HtmlChild[] = [...el.childNodes].reverse();
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (isText(node)) text += node.value;
    else if (isElement(node)) for (let i = node.childNodes.length - 1; i >= 0; i--) stack.push(node.childNodes[i]);
  }
  return text;
}
