export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Sends through SMTP_URL, or writes an .eml into DATA_DIR/outbox and logs the first link. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}
