import type { RobotInstance } from "#contracts/robot";

/** The campaigns using a robot, each linked, those calling now marked (the robot cannot be deleted then). */
export function RobotCampaigns({ campaigns }: { campaigns: RobotInstance["campaigns"] }) {
  if (campaigns.length === 0) return <>无</>;
  return (
    <>
      {campaigns.map((campaign, i) => (
        <span key={campaign.id}>
          {i > 0 ? "、" : ""}
          <a href={`/campaign/${campaign.id}`}>{campaign.name}</a>
          {campaign.calling ? "（外呼中）" : ""}
        </span>
      ))}
    </>
  );
}
