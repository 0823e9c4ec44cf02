/** Sign-in codes by e-mail: real SMTP when SMTP_URL is set, else written to the server log (development only). */
export async function createMailer({ smtpUrl, from }) {
  if (!smtpUrl) {
    return {
      logged: true,
      async send(to, code) {
        console.log(`[mail] (no SMTP_URL: development mode) sign-in code for ${to}: ${code}`)
      },
    }
  }
  const { default: nodemailer } = await import('nodemailer')
  const transport = nodemailer.createTransport(smtpUrl)
  return {
    logged: false,
    async send(to, code) {
      await transport.sendMail({
        from,
        to,
        subject: `Your interlingua sign-in code: ${code}`,
        text: `Your sign-in code is ${code}. It is valid for 10 minutes and can be used once.\n\nIf you did not ask for it, ignore this e-mail.`,
      })
    },
  }
}
