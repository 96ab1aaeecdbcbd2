import { describe, expect, test } from "vitest";
import { afterAnswerSettled, runAfterAnswer } from "./after-answer.server";
import {
  beforePlatformAttempt,
  payingPlatformPoints,
  recordPlatformAnswer,
  runInRequestScope,
  type PlatformPointsPayer,
  type RequestLogFields,
} from "./request-context.server";

/** A payer that writes down what it was asked and charged. */
function aPayer(): PlatformPointsPayer & { asked: number; charged: number[] } {
  return {
    asked: 0,
    charged: [],
    async beforeAttempt() {
      this.asked++;
    },
    spent(points) {
      this.charged.push(points);
    },
  };
}

/** One platform attempt as the admin client makes it: asked first, its answer's points recorded. */
async function anAttempt(points: number): Promise<void> {
  await beforePlatformAttempt();
  await new Promise((resolve) => setImmediate(resolve));
  recordPlatformAnswer(points);
}

describe("who pays a request's platform points", () => {
  test("the dispatcher's payer pays what the request spends, an attempt still under way when its work ended included", async () => {
    const payer = aPayer();
    const log: RequestLogFields = {};
    let late!: Promise<void>;
    await runInRequestScope(log, () =>
      payingPlatformPoints(payer, async () => {
        await anAttempt(3);
        late = anAttempt(4);
      }),
    );
    await late;
    expect(payer).toMatchObject({ asked: 2, charged: [3, 4] });
    expect(log).toMatchObject({ platformRequests: 2, platformPoints: 7 });
  });

  test("work started for after the answer is not the caller's to pay, though it is logged with the request", async () => {
    const payer = aPayer();
    const log: RequestLogFields = {};
    await runInRequestScope(log, async () => {
      await payingPlatformPoints(payer, () => anAttempt(3));
      runAfterAnswer("a trigger", () => anAttempt(5));
    });
    await afterAnswerSettled();
    expect(payer).toMatchObject({ asked: 1, charged: [3] });
    expect(log).toMatchObject({ platformRequests: 2, platformPoints: 8 });
  });

  test("a payer inside another's work pays for that work alone", async () => {
    const outer = aPayer();
    const inner = aPayer();
    await runInRequestScope({}, () =>
      payingPlatformPoints(outer, async () => {
        await payingPlatformPoints(inner, () => anAttempt(2));
        await anAttempt(6);
      }),
    );
    expect(inner).toMatchObject({ asked: 1, charged: [2] });
    expect(outer).toMatchObject({ asked: 1, charged: [6] });
  });

  test("outside a request's scope the payer still pays for the work it was given", async () => {
    const payer = aPayer();
    await payingPlatformPoints(payer, () => anAttempt(1));
    await anAttempt(9);
    expect(payer).toMatchObject({ asked: 1, charged: [1] });
  });
});
