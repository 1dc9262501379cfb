// Plain React beside the console: the markup the console rendered, rebuilt as a React element
// tree once, then rendered with renderToString on every request by a bare Node server (no
// router, no loaders, no session). Usage: node bench/lib/react-server.mjs <html-file> <port>
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { renderToString } from "react-dom/server";
import { htmlToReact } from "./html-to-react.mjs";

const [file, port] = process.argv.slice(2);
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
