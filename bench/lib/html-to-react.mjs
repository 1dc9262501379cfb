// Rebuilds server-rendered HTML as a React element tree, so that plain React can render the very
// markup the console rendered (bench/lib/react-server.mjs).
import { createElement } from "react";

const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
const BOOLEAN = new Set([
  "disabled",
  "hidden",
  "required",
  "selected",
  "checked",
  "multiple",
  "autofocus",
  "readonly",
  "novalidate",
  "open",
  "defer",
  "async",
  "nomodule",
]);
const RENAMED = {
  class: "className",
  for: "htmlFor",
  charset: "charSet",
  tabindex: "tabIndex",
  autocomplete: "autoComplete",
  autofocus: "autoFocus",
  readonly: "readOnly",
  maxlength: "maxLength",
  minlength: "minLength",
  crossorigin: "crossOrigin",
  "http-equiv": "httpEquiv",
  enctype: "encType",
  novalidate: "noValidate",
  colspan: "colSpan",
  rowspan: "rowSpan",
  srcset: "srcSet",
  datetime: "dateTime",
  "accept-charset": "acceptCharset",
  spellcheck: "spellCheck",
  inputmode: "inputMode",
};
const decode = (text) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|quot|amp|lt|gt|nbsp);/gi, (_, entity) => {
    if (entity[0] === "#") return String.fromCodePoint(entity[1] === "x" ? parseInt(entity.slice(2), 16) : Number(entity.slice(1)));
    return { quot: '"', amp: "&", lt: "<", gt: ">", nbsp: "\u00a0" }[entity.toLowerCase()];
  });
const camel = (name) => (name.startsWith("--") ? name : name.replace(/-([a-z])/g, (_, c) => c.toUpperCase()));

function propsOf(tag, attrs) {
  const props = {};
  for (const [, name, value = ""] of attrs.matchAll(/([^\s=/>]+)(?:="([^"]*)")?/g)) {
    const text = decode(value);
    if (name === "style") {
      props.style = Object.fromEntries(
        text
          .split(";")
          .filter((d) => d.includes(":"))
          .map((d) => [camel(d.split(":")[0].trim()), d.slice(d.indexOf(":") + 1).trim()]),
      );
    } else if (name === "value" && (tag === "input" || tag === "select")) props.defaultValue = text;
    else if (name === "checked") props.defaultChecked = true;
    else if (BOOLEAN.has(name)) props[RENAMED[name] ?? name] = true;
    else props[RENAMED[name] ?? name] = text;
  }
  return props;
}

/** React's own output is regular (quoted attributes, closed tags): a small tokenizer suffices. */
export function htmlToReact(html) {
  const root = { children: [] };
  const stack = [root];
  // Comments (React's text separators) and the doctype match but make no node.
  const tokens =
    /<!--[\s\S]*?-->|<!DOCTYPE[^>]*>|<\/([a-zA-Z0-9-]+)\s*>|<([a-zA-Z0-9-]+)((?:\s+[^\s=/>]+(?:="[^"]*")?)*)\s*(\/?)>|([^<]+)/g;
  for (let match; (match = tokens.exec(html));) {
    const [, close, open, attrs = "", selfClosing, text] = match;
    const top = stack[stack.length - 1];
    if (text !== undefined) top.children.push(decode(text));
    else if (close) {
      stack.pop();
      stack[stack.length - 1].children.push(build(top));
    } else if (open) {
      const node = { tag: open, props: propsOf(open, attrs), children: [] };
      if (open === "script" || open === "style") {
        // Raw text: kept verbatim, as React renders it.
        const end = html.indexOf(`</${open}>`, tokens.lastIndex);
        node.props.dangerouslySetInnerHTML = { __html: html.slice(tokens.lastIndex, end) };
        tokens.lastIndex = end + open.length + 3;
        top.children.push(build(node));
      } else if (selfClosing || VOID.has(open)) top.children.push(build(node));
      else stack.push(node);
    }
  }
  return root.children.find((child) => typeof child !== "string");
}

function build(node) {
  return createElement(node.tag, node.props, ...node.children);
}
