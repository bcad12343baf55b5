// Runs the MDN HTTP Observatory's own retriever, tests and grader against localhost with explicit ports.
// Its CLI (`scan(hostname)`) cannot take ports, so this mirrors src/scanner/index.js line for line, passing
// {httpPort, httpsPort} to the same retrieve() it uses. Usage: node observatory-grade.mjs HOST HTTP_PORT HTTPS_PORT
import { MINIMUM_SCORE_FOR_EXTRA_CREDIT } from "@mdn/mdn-http-observatory/src/grader/charts.js";
import {
  getGradeForScore,
  getScoreDescription,
  getScoreModifier,
} from "@mdn/mdn-http-observatory/src/grader/grader.js";
import { retrieve } from "@mdn/mdn-http-observatory/src/retriever/retriever.js";
import { ALL_TESTS, NUM_TESTS } from "@mdn/mdn-http-observatory/src/constants.js";

const [host, httpPort, httpsPort] = process.argv.slice(2);
const r = await retrieve(host, { httpPort: Number(httpPort), httpsPort: Number(httpsPort) });
if (!r.responses.auto) throw new Error("The site seems to be down.");
const results = ALL_TESTS.map((test) => test(r));
let testsPassed = 0;
let scoreWithExtraCredit = 100;
let uncurvedScore = 100;
for (const result of results) {
  if (!result.result) continue;
  result.scoreDescription = getScoreDescription(result.result);
  result.scoreModifier = getScoreModifier(result.result);
  testsPassed += result.pass ? 1 : 0;
  scoreWithExtraCredit += result.scoreModifier;
  if (result.scoreModifier < 0) uncurvedScore += result.scoreModifier;
}
const score = uncurvedScore >= MINIMUM_SCORE_FOR_EXTRA_CREDIT ? scoreWithExtraCredit : uncurvedScore;
const final = getGradeForScore(score);
console.log(
  JSON.stringify({
    grade: final.grade,
    score: final.score,
    statusCode: r.responses.auto.status,
    testsPassed,
    testsQuantity: NUM_TESTS,
    tests: results.map((t) => ({
      name: t.constructor.name,
      pass: t.pass,
      result: t.result,
      scoreModifier: t.scoreModifier,
      description: t.scoreDescription,
    })),
  }),
);
