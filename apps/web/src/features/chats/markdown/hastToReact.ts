import type { Element, Properties, Root, RootContent } from 'hast';
import { type ComponentType, createElement, type ReactNode } from 'react';
import { safeUrl } from './sanitize.ts';

/** A component standing in for an element, e.g. `pre` → a code block with a copy button. */
export type ElementComponent = ComponentType<{
  node: Element;
  props: Record<string, unknown>;
  children?: ReactNode;
}>;
export type ElementComponents = Readonly<Partial<Record<string, ElementComponent>>>;

/**
 * The elements Markdown (GFM, footnotes) and KaTeX produce. Anything else is unwrapped to its
 * children: no script, style, iframe, form or object can come out of model text, whatever the tree.
 */
const ALLOWED = new Set([
  // Markdown
  'a',
  'blockquote',
  'br',
  'code',
  'del',
  'em',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'img',
  'input',
  'li',
  'ol',
  'p',
  'pre',
  'section',
  'strong',
  'sup',
  'sub',
  'table',
  'tbody',
  'td',
  'th',
  'thead',
  'tr',
  'ul',
  'span',
  'div',
  // KaTeX: MathML and the SVG of stretchy symbols
  'math',
  'semantics',
  'annotation',
  'mrow',
  'mi',
  'mo',
  'mn',
  'ms',
  'mtext',
  'mspace',
  'msup',
  'msub',
  'msubsup',
  'mfrac',
  'msqrt',
  'mroot',
  'mstyle',
  'mtable',
  'mtr',
  'mtd',
  'mover',
  'munder',
  'munderover',
  'mpadded',
  'mphantom',
  'menclose',
  'mlabeledtr',
  'svg',
  'path',
  'line',
  'rect',
  'g',
]);

/** Attribute names that run code or load things: never copied from the tree. */
const FORBIDDEN_PROPS = /^(on|dangerously|formaction|action|srcdoc|srcset|ping|background|poster|ref$|key$)/i;
const URL_PROPS = new Set(['href', 'src', 'xlinkHref', 'cite']);

function hyphenate(name: string, prefix: 'data' | 'aria'): string {
  return `${prefix}-${name
    .slice(prefix.length)
    .replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)
    .replace(/^-/, '')}`;
}

/** `height:1em;vertical-align:-0.25em` → `{ height: '1em', verticalAlign: '-0.25em' }` (KaTeX's inline styles). */
export function parseStyle(style: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const declaration of style.split(';')) {
    const at = declaration.indexOf(':');
    if (at <= 0) continue;
    const property = declaration.slice(0, at).trim().toLowerCase();
    const value = declaration.slice(at + 1).trim();
    // Styles only size and place glyphs: nothing that can fetch (url()) or run old IE expressions.
    if (!property || !value || /url\(|expression\(|javascript:/i.test(value)) continue;
    const name = property.startsWith('--')
      ? property
      : property.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
    out[name] = value;
  }
  return out;
}

/** hast properties → React props, keeping only what is safe and meaningful. */
export function toReactProps(tagName: string, properties: Properties | undefined): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(properties ?? {})) {
    if (raw === null || raw === undefined || raw === false || FORBIDDEN_PROPS.test(name)) continue;
    if (name === 'className') {
      props.className = Array.isArray(raw) ? raw.join(' ') : String(raw);
    } else if (name === 'style') {
      if (typeof raw === 'string') props.style = parseStyle(raw);
    } else if (name === 'align' && (tagName === 'td' || tagName === 'th')) {
      props.style = { textAlign: String(raw) };
    } else if (URL_PROPS.has(name)) {
      const url = safeUrl(String(raw), name === 'src' ? 'src' : 'href');
      if (url) props[name] = url;
    } else if (/^data[A-Z]/.test(name)) {
      props[hyphenate(name, 'data')] = Array.isArray(raw) ? raw.join(' ') : raw === true ? '' : String(raw);
    } else if (/^aria[A-Z]/.test(name)) {
      props[hyphenate(name, 'aria')] = Array.isArray(raw) ? raw.join(' ') : String(raw);
    } else if (/^[a-zA-Z][a-zA-Z0-9]*$/.test(name)) {
      props[name] = Array.isArray(raw) ? raw.join(' ') : raw;
    }
  }
  if (tagName === 'input') {
    // GFM task lists: a checkbox that shows state and does nothing else.
    if (props.type !== 'checkbox') return { hidden: true };
    return { type: 'checkbox', checked: props.checked === true, disabled: true, readOnly: true };
  }
  return props;
}

function renderChildren(children: readonly RootContent[], components: ElementComponents): ReactNode[] {
  return children.map((child, i) => renderNode(child, components, i));
}

function renderNode(node: RootContent, components: ElementComponents, key: number): ReactNode {
  switch (node.type) {
    case 'text':
      return node.value;
    case 'element':
      return renderElement(node, components, key);
    default:
      // Comments, doctypes and raw nodes are never rendered.
      return null;
  }
}

function renderElement(node: Element, components: ElementComponents, key: number): ReactNode {
  const children = node.children.length > 0 ? renderChildren(node.children, components) : undefined;
  if (!ALLOWED.has(node.tagName)) return createElement('span', { key }, children);
  const props = toReactProps(node.tagName, node.properties);
  const Component = components[node.tagName];
  if (Component) return createElement(Component, { key, node, props }, children);
  if (node.tagName === 'input' || node.tagName === 'br' || node.tagName === 'hr' || node.tagName === 'img') {
    return createElement(node.tagName, { key, ...props });
  }
  return createElement(node.tagName, { key, ...props }, children);
}

/** An HTML tree (from Markdown) as React elements; React escapes every text. */
export function hastToReact(tree: Root, components: ElementComponents = {}): ReactNode[] {
  return renderChildren(tree.children, components);
}
