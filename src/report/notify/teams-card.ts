// A Notice as a Microsoft Teams workflow webhook's message: one Adaptive Card
// (schema 1.4, what the "Post to a channel when a webhook request is received"
// workflow renders) with the title, a FactSet of repository, target, cluster
// and counts, the objects, who changed them, and buttons to act from.
import { clip, oneLine } from "../../model/one-line.ts";
import { type Notice, noticeCounts, noticeLinks, noticeTitle } from "./notice.ts";

const text = (value: string, extra: Record<string, unknown> = {}) => ({
  type: "TextBlock",
  text: clip(oneLine(value), 2000),
  wrap: true,
  ...extra,
});

/** The JSON body to POST to the channel's workflow URL. */
export function teamsCard(notice: Notice): Record<string, unknown> {
  const facts = [
    { title: "Repository", value: notice.repo },
    { title: "Target", value: notice.target },
    { title: "Cluster", value: notice.cluster },
    { title: "Objects", value: noticeCounts(notice) },
    ...(notice.actors.length > 0 ? [{ title: "Changed by", value: notice.actors.join(", ") }] : []),
    ...(notice.since ? [{ title: "First seen", value: notice.since }] : []),
  ].map((f) => ({ title: f.title, value: clip(oneLine(f.value), 500) }));
  const body: Array<Record<string, unknown>> = [
    text(noticeTitle(notice), { weight: "Bolder", size: "Medium" }),
    { type: "FactSet", facts },
  ];
  if (notice.summary) body.push(text(notice.summary));
  for (const o of notice.objects) {
    const more = o.moreFields > 0 ? ` and ${o.moreFields} more` : "";
    body.push(
      text(`${o.label} ${o.status}${o.fields.length ? `: ${o.fields.join(", ")}${more}` : ""}`, { spacing: "Small" }),
    );
  }
  if (notice.moreObjects > 0) body.push(text(`… and ${notice.moreObjects} more objects`, { isSubtle: true }));
  const card = {
    $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
    type: "AdaptiveCard",
    version: "1.4",
    body,
    actions: noticeLinks(notice).map((link) => ({ type: "Action.OpenUrl", title: link.text, url: link.url })),
  };
  return {
    type: "message",
    attachments: [{ contentType: "application/vnd.microsoft.card.adaptive", contentUrl: null, content: card }],
  };
}
