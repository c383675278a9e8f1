// A Notice as a Slack incoming webhook's message (Block Kit): a header, the
// repository, target, cluster and counts as fields, the objects and their
// fields, who changed them, and buttons to the pull request, issue and check.
// Text from the cluster is escaped (`&`, `<`, `>`), so it cannot mention
// anyone or forge a link; Slack's block limits are kept.
import { clip, oneLine } from "../../model/one-line.ts";
import { type Notice, noticeCounts, noticeLinks, noticeTitle } from "./notice.ts";

/** Slack's mrkdwn escapes: the only three characters it treats as control sequences. */
export function slackEscape(text: string): string {
  return oneLine(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

const field = (name: string, value: string) => ({
  type: "mrkdwn",
  text: `*${name}*\n${clip(slackEscape(value), 1900)}`,
});

/** The JSON body to POST to the channel's incoming webhook. */
export function slackMessage(notice: Notice): Record<string, unknown> {
  const title = noticeTitle(notice);
  const blocks: Array<Record<string, unknown>> = [
    { type: "header", text: { type: "plain_text", text: clip(oneLine(title), 150) } },
    {
      type: "section",
      fields: [
        field("Repository", notice.repo),
        field("Target", notice.target),
        field("Cluster", notice.cluster),
        field("Objects", noticeCounts(notice)),
      ],
    },
  ];
  if (notice.summary)
    blocks.push({ type: "section", text: { type: "mrkdwn", text: clip(slackEscape(notice.summary), 2900) } });
  const objects = objectLines(notice);
  if (objects) blocks.push({ type: "section", text: { type: "mrkdwn", text: objects } });
  const context = [
    ...(notice.actors.length > 0 ? [`Changed by ${notice.actors.map(slackEscape).join(", ")}`] : []),
    ...(notice.since ? [`First seen ${notice.since}`] : []),
    `Revision \`${slackEscape(notice.revision.slice(0, 12))}\``,
  ];
  blocks.push({ type: "context", elements: context.map((text) => ({ type: "mrkdwn", text: clip(text, 2900) })) });
  const links = noticeLinks(notice);
  if (links.length > 0) {
    blocks.push({
      type: "actions",
      elements: links.map((link) => ({
        type: "button",
        text: { type: "plain_text", text: link.text },
        url: link.url,
      })),
    });
  }
  // `text` is what notifications and screen readers show, and what clients without blocks show.
  return { text: `${title} (${noticeCounts(notice)})`, blocks };
}

/** `• apps/v1 Deployment shop/web drifted: /spec/replicas, ...`, within a section's 3000 characters. */
function objectLines(notice: Notice): string {
  const lines = notice.objects.map((o) => {
    const fields = o.fields.map((f) => `\`${slackEscape(f)}\``).join(", ");
    const more = o.moreFields > 0 ? ` and ${o.moreFields} more` : "";
    return `• \`${slackEscape(o.label)}\` ${o.status}${fields ? `: ${fields}${more}` : ""}`;
  });
  if (notice.moreObjects > 0) lines.push(`… and ${notice.moreObjects} more objects`);
  return clip(lines.join("\n"), 2900);
}
