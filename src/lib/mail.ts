import type { FastifyBaseLogger } from 'fastify'
import nodemailer from 'nodemailer'
import type { AccountsConfig } from '../config.js'

export interface MailMessage {
  to: string
  subject: string
  text: string
}

/** Sends the service's e-mails; a failure is logged, never the caller's error (the link is in the API's answer too). */
export type Mailer = (message: MailMessage, log: FastifyBaseLogger) => Promise<void>

/** A mailer on SMTP_URL, or null when no mail is configured. */
export function createMailer(mail: AccountsConfig['mail']): Mailer | null {
  if (!mail) return null
  const transport = nodemailer.createTransport(mail.url)
  return async (message, log) => {
    try {
      await transport.sendMail({ from: mail.from, ...message })
    } catch (error) {
      log.error({ err: error, subject: message.subject }, 'e-mail not sent')
    }
  }
}
