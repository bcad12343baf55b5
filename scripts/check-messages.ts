// `npm run i18n:check`: compiles every locale's interface messages as the build does, failing on a message that is not
// valid ICU MessageFormat, and lists what each locale has not translated yet.
import path from "node:path";
import { compileCatalogue } from "../app/features/i18n/messages.build";
import { LOCALE_CODES } from "../app/features/i18n/locales";

const localesDir = path.resolve(import.meta.dirname, "../app/locales");
let failed = false;
for (const locale of LOCALE_CODES) {
  try {
    const { messages, missing } = await compileCatalogue(localesDir, locale);
    console.log(`${locale}: ${Object.keys(messages).length} messages, ${missing.length} not translated`);
    for (const message of missing) console.log(`  ${JSON.stringify(message)}`);
  } catch (error) {
    failed = true;
    console.error(`${locale}: ${(error as Error).message}`);
  }
}
process.exitCode = failed ? 1 : 0;
