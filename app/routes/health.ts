/** GET /health: 200 once the console answers (design.md §8). */
export async function loader() {
  return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
}
