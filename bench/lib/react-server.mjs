// Plain React beside the console: the markup the console rendered, rebuilt as a React element
// tree once, then rendered with renderToString on every request by a bare Node server (no
// router, no loaders, no session). Usage: node bench/lib/react-server.mjs <html-file> <port>
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { createElement } from "react";
import { renderToString } from "react-dom/server";

const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
const BOOLEAN = new Set(["disabled", "hidden", "required", "selected", "checked", "multiple", "autofocus", "readonly", "novalidate", "open", "defer", "async", "nomodule"]);
const RENAMED = {
  class: "className", for: "htmlFor", charset: "charSet", tabindex: "tabIndex", autocomplete: "autoComplete",
  autofocus: "autoFocus", readonly: "readOnly", maxlength: "maxLength", minlength: "minLength", crossorigin: "crossOrigin",
  "http-equiv": "httpEquiv", enctype: "encType", novalidate: "noValidate", colspan: "colSpan", rowspan: "rowSpan",
  srcset: "srcSet", datetime: "dateTime", "accept-charset": "acceptCharset", spellcheck: "spellCheck", inputmode: "inputMode",
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
      props.style = Object.fromEntries(text.split(";").filter((d) => d.includes(":")).map((d) => [camel(d.split(":")[0].trim()), d.slice(d.indexOf(":") + 1).trim()]));
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
  const tokens = /<!--[\s\S]*?-->|<!DOCTYPE[^>]*>|<\/([a-zA-Z0-9-]+)\s*>|<([a-zA-Z0-9-]+)((?:\s+[^\s=/>]+(?:="[^"]*")?)*)\s*(\/?)>|([^<]+)/g;
  for (const [token, close, open, attrs = "", selfClosing, text] of html.matchAll(tokens)) {
    const top = stack[stack.length - 1];
    if (text !== undefined) top.children.push(decode(text));
    else if (close) {
      const node = stack.pop();
      stack[stack.length - 1].children.push(build(node));
    } else if (open) {
      const node = { tag: open, props: propsOf(open, attrs), children: [] };
      if (selfClosing || VOID.has(open)) top.children.push(build(node));
      else if (open === "script" || open === "style") {
        const end = html.indexOf(`</${open}>`, tokens.lastIndex);
        node.props.dangerouslySetInnerHTML = { __html: html.slice(tokens.lastIndex, end) };
        tokens.lastIndex = end + open.length + 3;
        top.children.push(build(node));
      } else stack.push(node);
    } else if (token.startsWith("<!--")) continue;
  }
  return root.children.find((child) => typeof child !== "string");
}

function build(node) {
  const children = node.props.dangerouslySetInnerHTML ? [] : node.children;
  return createElement(node.tag, { ...node.props, key: undefined }, ...children);
}

const [file, port] = process.argv.slice(2);
if (file) {
  const original = readFileSync(file, "utf8");
  const tree = htmlToReact(original);
  const render = () => `<!DOCTYPE html>${renderToString(tree)}`;
  const sample = render();
  createServer((request, response) => {
    const body = render();
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": Buffer.byteLength(body) });
    response.end(body);
  }).listen(Number(port), "127.0.0.1", () =>
    console.log(JSON.stringify({ port: Number(port), originalBytes: Buffer.byteLength(original), renderedBytes: Buffer.byteLength(sample) })),
  );
}
