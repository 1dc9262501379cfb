import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { GENDERS, labelOf } from "#contracts/codes";
import type { RobotSpeaker } from "#contracts/robot-resources";
import { DataTable } from "#app/components/data-table";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { ROBOT_RESOURCE_TITLES } from "#app/lib/screens";
import { requireAccess } from "#app/server/access.server";
import { listSpeakers } from "#app/services/robot-resources.server";

const title = ROBOT_RESOURCE_TITLES.speaker;
export const handle: RouteHandle = { title };

export async function loader({ request }: LoaderFunctionArgs) {
  const { caller } = await requireAccess(request);
  return { speakers: await listSpeakers(caller) };
}

/** The speakers a robot can talk with, each with a preview a plain <audio controls> plays (no script). */
export default function RobotSpeakers() {
  const { speakers } = useLoaderData<typeof loader>();
  return (
    <Screen title={title}>
      <DataTable<RobotSpeaker>
        caption="发音人列表"
        rowKey="code"
        emptyMessage="暂无发音人"
        config={{
          list: speakers,
          total: speakers.length,
          eleItem: [
            { prop: "name", label: "发音人", render: (s) => <strong>{s.name}</strong> },
            { prop: "gender", label: "性别", render: (s) => labelOf(GENDERS, s.gender) },
            { prop: "style", label: "风格" },
            { prop: "previewText", label: "试听文本" },
            {
              prop: "code",
              label: "试听",
              minWidth: 260,
              render: (s) => (
                <audio controls preload="none" src={`/robot/speaker/${s.code}/preview`} aria-label={`试听「${s.name}」`}>
                  <a href={`/robot/speaker/${s.code}/preview`}>下载「{s.name}」的试听音频</a>
                </audio>
              ),
            },
          ],
        }}
      />
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
