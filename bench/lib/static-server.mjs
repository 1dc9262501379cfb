// The ceiling of the SSR section: a bare Node server answering every request with the bytes the
// console rendered. Usage: node bench/lib/static-server.mjs <html-file> <port>
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const [file, port] = process.argv.slice(2);
const body = readFileSync(file);
createServer((request, response) => {
  response.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": body.length });
  response.end(body);
}).listen(Number(port), "127.0.0.1", () => console.log(`static ceiling on ${port} (${body.length} bytes)`));
