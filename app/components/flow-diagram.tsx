import { FLOW_NODE_TYPES, INTENT_LABELS, labelOf } from "#contracts/codes";
import type { FlowNode } from "#contracts/robot";

const W = 168;
const H = 48;
const GAP_X = 36;
const GAP_Y = 56;

/** Every route out of a node with its label, for the drawing. */
function edgesOf(node: FlowNode): Array<{ to: string; label: string }> {
  switch (node.type) {
    case "speak":
      return node.next ? [{ to: node.next, label: "" }] : [];
    case "listen":
      return [
        ...node.intents.filter((r) => r.next).map((r) => ({ to: r.next, label: labelOf(INTENT_LABELS, r.intent) })),
        ...(node.otherNext ? [{ to: node.otherNext, label: "未识别" }] : []),
      ];
    case "branch":
      return [
        ...node.branches.filter((r) => r.next).map((r) => ({ to: r.next, label: `${r.variable}=${r.value}` })),
        ...(node.otherNext ? [{ to: node.otherNext, label: "其他" }] : []),
      ];
    default:
      return [];
  }
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * The flow drawn on the server as SVG (no script): nodes in rows by their distance from the start,
 * unreachable ones in a last row, routes as arrows labelled with their intent or condition;
 * nodes with a problem are outlined in red.
 */
export function FlowDiagram({ nodes, problemKeys, title }: { nodes: FlowNode[]; problemKeys: Set<string>; title: string }) {
  if (nodes.length === 0) return <p className="sb-hint">该版本没有节点（录音话术）。</p>;
  const byKey = new Map(nodes.map((n) => [n.key, n]));
  const depth = new Map<string, number>([[nodes[0].key, 0]]);
  const queue = [nodes[0].key];
  while (queue.length > 0) {
    const key = queue.shift()!;
    for (const edge of edgesOf(byKey.get(key)!)) {
      if (byKey.has(edge.to) && !depth.has(edge.to)) {
        depth.set(edge.to, depth.get(key)! + 1);
        queue.push(edge.to);
      }
    }
  }
  const lastRow = Math.max(...depth.values()) + 1;
  const rows: FlowNode[][] = [];
  for (const node of nodes) (rows[depth.get(node.key) ?? lastRow] ??= []).push(node);
  const widest = Math.max(...rows.filter(Boolean).map((r) => r.length));
  const width = widest * (W + GAP_X) + GAP_X;
  const at = new Map<string, { x: number; y: number }>();
  rows.forEach((row, r) => {
    if (!row) return;
    const offset = (width - row.length * (W + GAP_X) + GAP_X) / 2;
    row.forEach((node, i) => at.set(node.key, { x: offset + i * (W + GAP_X), y: 16 + r * (H + GAP_Y) }));
  });
  const height = 16 + rows.length * (H + GAP_Y);
  return (
    <svg
      className="sb-flow-diagram"
      viewBox={`0 0 ${width} ${height}`}
      width={width}
      height={height}
      role="img"
      aria-labelledby="flow-diagram-title flow-diagram-desc"
    >
      <title id="flow-diagram-title">{title}</title>
      <desc id="flow-diagram-desc">
        {nodes
          .map(
            (n) =>
              `${n.name}（${labelOf(FLOW_NODE_TYPES, n.type)}）${edgesOf(n)
                .map((e) => ` → ${byKey.get(e.to)?.name ?? e.to}`)
                .join("")}`,
          )
          .join("；")}
      </desc>
      <defs>
        <marker id="flow-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M 0 0 L 10 5 L 0 10 z" fill="#475569" />
        </marker>
      </defs>
      {nodes.flatMap((node) =>
        edgesOf(node).map((edge, i) => {
          const from = at.get(node.key)!;
          const to = at.get(edge.to);
          if (!to) return null;
          const x1 = from.x + W / 2;
          const y1 = from.y + H;
          const x2 = to.x + W / 2;
          const up = to.y <= from.y;
          const y2 = up ? to.y + H : to.y;
          const path = up ? `M ${x1} ${y1} C ${x1 + 60} ${y1 + 40}, ${x2 + 60} ${y2 + 40}, ${x2 + 8} ${y2}` : `M ${x1} ${y1} L ${x2} ${y2}`;
          return (
            <g key={`${node.key}-${i}`}>
              <path d={path} fill="none" stroke="#475569" strokeWidth="1.5" markerEnd="url(#flow-arrow)" />
              {edge.label ? (
                <text x={(x1 + x2) / 2 + (up ? 40 : 4)} y={(y1 + y2) / 2 + (up ? 24 : 0)} fontSize="11" fill="#1e293b">
                  {clip(edge.label, 10)}
                </text>
              ) : null}
            </g>
          );
        }),
      )}
      {nodes.map((node) => {
        const { x, y } = at.get(node.key)!;
        const end = node.type === "transfer" || node.type === "hangup";
        return (
          <g key={node.key}>
            <rect
              x={x}
              y={y}
              width={W}
              height={H}
              rx={end ? 24 : 6}
              fill={node === nodes[0] ? "#dbeafe" : end ? "#dcfce7" : "#ffffff"}
              stroke={problemKeys.has(node.key) ? "#b91c1c" : "#334155"}
              strokeWidth={problemKeys.has(node.key) ? 3 : 1.5}
            />
            <text x={x + W / 2} y={y + 20} textAnchor="middle" fontSize="13" fontWeight="bold" fill="#0f172a">
              {clip(node.name, 11)}
            </text>
            <text x={x + W / 2} y={y + 38} textAnchor="middle" fontSize="11" fill="#334155">
              {labelOf(FLOW_NODE_TYPES, node.type)} · {node.key}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
