import nodemailer from 'nodemailer';

export interface OutgoingMail {
  from: string;
  to: string;
  replyTo: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** SMTP through nodemailer; `undefined` when no SMTP server is configured (outbox only). */
export function createSmtpMailer(url: string | undefined): Mailer | undefined {
  if (!url) return undefined;
  const transport = nodemailer.createTransport(url);
  return {
    async send(mail) {
      await transport.sendMail(mail);
    },
    close: () => transport.close(),
  };
}
