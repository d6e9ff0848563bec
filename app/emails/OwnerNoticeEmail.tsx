import { Fragment } from "react";
import { DAILY_SUMMARY_HOUR } from "~/lib/owner-notifications";
import { htmlDocument } from "./document";
import { EmailLayout } from "./Layout";
import { Box, Button, DetailRows, Divider, Heading, Paragraph, SubHeading } from "./parts";
import { footerText, paragraphs } from "./text";
import type { EmailContent, EmailShop } from "./types";

/**
 * To the shop: something needs the owner (a withdrawal to refund, a renewal refused, a refund made
 * at Stripe, a contact request, an email not delivered). Every notice says what happened, what
 * to do, by when when there is a deadline, and links to the back-office page where it is done.
 */
export type OwnerNotice = {
  /** The subject when the notice is sent on its own. */
  subject: string;
  heading: string;
  /** What happened, in one or two sentences. */
  summary: string;
  rows: [string, string][];
  /** What to do. */
  todo: string;
  /** « À rembourser au plus tard le 11 décembre 2026 », when there is a deadline. */
  deadline: string | null;
  /** An absolute link to the back-office page. */
  link: { label: string; url: string };
};

function NoticeBody({ notice, Title }: { notice: OwnerNotice; Title: typeof Heading }) {
  return (
    <>
      <Title>{notice.heading}</Title>
      <Paragraph>{notice.summary}</Paragraph>
      {notice.deadline ? (
        <Box>
          <Paragraph>
            <strong>{notice.deadline}</strong>
          </Paragraph>
        </Box>
      ) : null}
      <DetailRows rows={notice.rows} />
      <Paragraph>
        <strong>À faire : </strong>
        {notice.todo}
      </Paragraph>
      <Button href={notice.link.url}>{notice.link.label}</Button>
    </>
  );
}

function noticeText(notice: OwnerNotice): string[] {
  return [
    notice.summary,
    notice.deadline ? `>>> ${notice.deadline}` : null,
    notice.rows.map(([label, value]) => `${label} : ${value}`).join("\n"),
    `À faire : ${notice.todo}`,
    `${notice.link.label} : ${notice.link.url}`,
  ].filter((p): p is string => p !== null);
}

export function ownerNoticeEmail({ shop, notice }: { shop: EmailShop; notice: OwnerNotice }): EmailContent {
  const html = htmlDocument(
    <EmailLayout shop={shop} title={notice.subject} preheader={notice.deadline ?? notice.summary}>
      <NoticeBody notice={notice} Title={Heading} />
      <Paragraph small>
        Vous pouvez couper cette notification, ou la regrouper dans un résumé quotidien, dans Paramètres › Notifications.
      </Paragraph>
    </EmailLayout>,
  );
  const text = paragraphs(
    notice.heading,
    ...noticeText(notice),
    "Vous pouvez couper cette notification, ou la regrouper dans un résumé quotidien, dans Paramètres › Notifications.",
    footerText(shop),
  );
  return { subject: notice.subject, html, text };
}

/** « 2 événements à traiter ». */
export function eventsToHandle(count: number): string {
  return `${count} événement${count > 1 ? "s" : ""} à traiter`;
}

/** The daily summary: each notice of the day, in the order they happened, with its own link. */
export function ownerDailySummaryEmail({
  shop,
  dayLabel,
  notices,
  settingsUrl,
}: {
  shop: EmailShop;
  /** « 27 novembre 2026 ». */
  dayLabel: string;
  notices: OwnerNotice[];
  settingsUrl: string;
}): EmailContent {
  const subject = `Résumé du ${dayLabel} : ${eventsToHandle(notices.length)}`;
  const deadlines = notices.filter((n) => n.deadline).length;
  const intro = `Depuis le résumé précédent : ${eventsToHandle(notices.length)}${deadlines ? `, dont ${deadlines} avec une date limite` : ""}.`;
  const html = htmlDocument(
    <EmailLayout shop={shop} title={subject} preheader={intro}>
      <Heading>{`Résumé du ${dayLabel}`}</Heading>
      <Paragraph>{intro}</Paragraph>
      {notices.map((notice, i) => (
        <Fragment key={i}>
          {i > 0 ? <Divider /> : null}
          <NoticeBody notice={notice} Title={SubHeading} />
        </Fragment>
      ))}
      <Paragraph small>
        Ce résumé part chaque matin à {DAILY_SUMMARY_HOUR} h (heure de Paris) quand il y a quelque chose à vous dire. Pour
        recevoir un email par événement, décochez « Résumé quotidien » dans Paramètres › Notifications : {settingsUrl}
      </Paragraph>
    </EmailLayout>,
  );
  const text = paragraphs(
    `Résumé du ${dayLabel}`,
    intro,
    ...notices.flatMap((notice, i) => [`${i + 1}. ${notice.heading}`, ...noticeText(notice)]),
    `Ce résumé part chaque matin à ${DAILY_SUMMARY_HOUR} h (heure de Paris) quand il y a quelque chose à vous dire. Pour recevoir un email par événement, décochez « Résumé quotidien » dans Paramètres › Notifications : ${settingsUrl}`,
    footerText(shop),
  );
  return { subject, html, text };
}
