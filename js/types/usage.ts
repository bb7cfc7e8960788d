// A small program against the package's declarations, compiled by
// scripts/check-types.sh with `tsc --noEmit --strict`. Every `@ts-expect-error`
// line must fail to type-check: that proves the results are typed, not `any`.

import init, {
  Analysis,
  analyze,
  analyzeObject,
  calibrate,
  canonicalLabel,
  defaultConfig,
  evaluate,
  qualityScore,
} from "ragtrace-js";
import type {
  AnalysisObject,
  Block,
  Calibration,
  CanonicalLabel,
  Config,
  GoldenLevel,
  GoldenReport,
  Level,
  Settings,
  Suggestion,
  Summary,
  TraceAnalysis,
} from "ragtrace-js";

export async function main(text: string, cases: string): Promise<void> {
  await init();

  const settings: Settings = { maxL2Distance: 1.2, hybridQuality: "denseWhenPresent" };
  const analysis: Analysis = analyze(text, settings);
  const count: number = analysis.traceCount;
  const summary: Summary = analysis.summary();
  const precise: number | undefined = summary.levels.PRECISE;
  const denseTraces: number = summary.byMode.dense.traces;
  const first: TraceAnalysis | undefined = analysis.trace(0);
  if (first !== undefined) {
    const level: Level = first.relevanceLevel;
    const top: number | null = first.topQuality;
    const blocks: Block[] = first.blocks;
    const accepted = blocks.filter((b) => b.status === "accepted").map((b) => b.acceptedRank);
    const label: CanonicalLabel | null = first.mode;
    console.log(level, top, accepted, label, first.stages.docCapped);
  }
  const page: TraceAnalysis[] = analysis.traces(0, 50);
  const rest: TraceAnalysis[] = analysis.traces(50);
  const sweep = analysis.sweep().map((p) => p.threshold * p.fraction);
  const codes: string[] = analysis.warnings().map((w) => w.code);
  const lines: (number | null)[] = analysis.inputErrors().map((e) => e.line);
  const sources: string[] = analysis.documents().map((d) => d.source);
  const effective: Config = analysis.config();
  const whole: AnalysisObject = analysis.toJSON();
  const text2: string = JSON.stringify(analysis);
  analysis.free();
  console.log(count, precise, denseTraces, page, rest, sweep, codes, lines, sources, effective);
  console.log(whole.summary.traces, text2.length);

  const same: AnalysisObject = analyzeObject(JSON.parse(text), '{"returnN": 3}');
  const noConfig: AnalysisObject = analyzeObject(text);
  const report: GoldenReport = evaluate(cases, text, null);
  const verdict: GoldenLevel = report.cases[0].level;
  const mean: number = report.summary.meanNdcg;
  const calibration: Calibration = calibrate(cases, text, { referenceThreshold: 0.3 });
  const auc: number | null = calibration.gate.all.auc;
  const firstRule: Suggestion["rule"] = calibration.suggestions[0].rule;
  console.log(auc, firstRule, calibration.levels.rows[0].recomputed.miss);
  const defaults: Config = defaultConfig();
  const label: CanonicalLabel | null = canonicalLabel("rrf_fused");
  const quality: number = qualityScore("l2_distance", 0.25, 1, 4);
  const withConfig: number = qualityScore("hybrid", null, 3, 5, { returnN: 2 }, 0.7);
  console.log(same, noConfig, verdict, mean, defaults.returnN, label, quality, withConfig);

  // @ts-expect-error: a summary is not a string
  const wrongSummary: string = analysis.summary();
  // @ts-expect-error: a trace may be missing
  const wrongTrace: TraceAnalysis = analysis.trace(1);
  // @ts-expect-error: levels are the five names
  const wrongLevel: Level = "VERY_RELEVANT";
  // @ts-expect-error: settings are typed
  analyze(text, { returnN: "five" });
  // @ts-expect-error: hybridQuality is one of three
  const wrongSettings: Settings = { hybridQuality: "max" };
  // @ts-expect-error: a golden report has no traces
  console.log(report.traces);
  // @ts-expect-error: the block's status is one of five
  const wrongStatus: Block["status"] = "rejected";
  // @ts-expect-error: canonicalLabel may be null
  const wrongLabel: CanonicalLabel = canonicalLabel("cosine");
  console.log(wrongSummary, wrongTrace, wrongLevel, wrongSettings, wrongStatus, wrongLabel);
}

// compareRuns: two runs side by side.
import { compareRuns } from "ragtrace-js";
import type {
  CompareReport,
  ManyRunComparison,
  ManyRunMetric,
  PartialCase,
  TukeyHsd,
  GoldenComparison,
  GroupSummary,
  PairDetail,
  PairedBy,
  UnpairedTrace,
} from "ragtrace-js";

export function compare(runA: string, runB: object, cases: string): void {
  const report: CompareReport = compareRuns(runA, runB, cases, { returnN: 3 }, { rboP: 0.8 });
  const plain: CompareReport = compareRuns(runA, runB);
  const rboP: number = report.options.rboP;
  const all: GroupSummary = report.groups[0];
  const meanRbo: number | null = all.rboExt.mean;
  const fromPrecise: number[] = all.levelTransitions[0];
  const pair: PairDetail = report.pairs[0];
  const by: PairedBy = pair.pairedBy;
  const rbo: number | undefined = pair.rbo?.ext;
  const onlyA: string[] = pair.onlyInA.map((d) => d.docId);
  const keys: string[] = pair.configDifferences.map((d) => d.key);
  const unpaired: UnpairedTrace[] = report.unpairedA.concat(report.unpairedB);
  const golden: GoldenComparison | null = report.golden;
  if (golden !== null) {
    const holm: (number | undefined)[] = golden.metrics.map((m) => m.significance?.permutationPHolm);
    const seed: string | undefined = golden.significanceOptions?.permutationSeed;
    console.log(holm, seed, golden.cases[0].metrics[1].delta, golden.regressions);
  }
  console.log(plain.runs.pairs, rboP, meanRbo, fromPrecise, by, rbo, onlyA, keys, unpaired);

  // Many runs at once: the other overload, the other result.
  const many: ManyRunComparison = compareRuns(
    [
      { name: "dense", input: runA },
      { name: "hybrid", input: runB },
    ],
    cases,
    { returnN: 3 },
    { baseline: "dense" },
  );
  const hit: ManyRunMetric = many.metrics[0];
  const letters: string[] = hit.letters;
  const p: number | undefined = hit.tukey?.p[0][1];
  const common: number = many.cases.common;
  const partial: PartialCase[] = many.partialCases;
  console.log(letters, p, common, partial, many.baseline, hit.ci?.[0][0]);
  // @ts-expect-error: the many-run form needs cases
  compareRuns([{ name: "dense", input: runA }]);
  // @ts-expect-error: the baseline is a run's name
  compareRuns([{ name: "dense", input: runA }], cases, null, { baseline: 1 });
  // @ts-expect-error: tukey is null before the tests ran
  const wrongTukey: TukeyHsd = hit.tukey;
  console.log(wrongTukey);
  // @ts-expect-error: rboP is a number
  compareRuns(runA, runB, null, null, { rboP: "high" });
  // @ts-expect-error: golden may be null
  const wrongGolden: GoldenComparison = report.golden;
  // @ts-expect-error: a pair's rbo may be null
  const wrongRbo: number = pair.rbo.ext;
  // @ts-expect-error: pairedBy is one of three
  const wrongBy: PairedBy = "name";
  console.log(wrongGolden, wrongRbo, wrongBy);
}

// explain: what would it take.
import { explain } from "ragtrace-js";
import type {
  CandidateExplanation,
  CaseExplanation,
  Cause,
  ChangeImpact,
  Explanation,
  SettingsChange,
} from "ragtrace-js";

export function whatWouldItTake(traces: string, cases: object): void {
  const e: Explanation = explain(traces, cases, { returnN: 3 });
  const plain: Explanation = explain(traces);
  const candidate: CandidateExplanation = e.traces[0].candidates[0];
  const firstFix: SettingsChange | undefined = candidate.acceptedIf[0]?.set;
  const returnN: number | undefined = firstFix?.returnN;
  const up: string[] = e.traces[0].levelIf.map((l) => `${l.level} at ${JSON.stringify(l.set)}`);
  const c: CaseExplanation = e.cases[0];
  const cause: Cause = c.cause;
  const dropped: number = e.summary.causes["dropped"];
  const best: ChangeImpact | undefined = e.summary.changes[0];
  console.log(plain.summary.traces, returnN, up, cause, c.traceIndex, dropped, best?.recovers);
  // @ts-expect-error: a cause is one of four
  const wrongCause: Cause = "missing";
  // @ts-expect-error: a case may have no trace
  const wrongIndex: number = c.traceIndex;
  console.log(wrongCause, wrongIndex);
}
