// drizzle-kit's configuration: `npm run db:generate` turns src/schema.mjs into a new SQL file under migrations/
// (with its snapshot in migrations/meta/); commit both. The service applies them at start (src/db.mjs).
export default {
  dialect: 'postgresql',
  schema: './src/schema.mjs',
  out: './migrations',
}
