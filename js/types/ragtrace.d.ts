// The result and argument types of ragtrace's JavaScript API (contract section 7).
// wasm-bindgen appends this file to the package's generated .d.ts, where the
// exported functions and the Analysis class name these types. Keys and nullability
// follow the CLI's JSON; js/tests/declarations.rs checks every interface's keys
// against real output, and scripts/check-types.sh compiles types/usage.ts with tsc.

/** "dense" (an L2 distance) or "hybrid" (a rank-fused score). */
export type CanonicalLabel = "dense" | "hybrid";
/** How a hybrid hit's quality is computed (contract section 3.2). */
export type HybridQuality = "rank" | "denseWhenPresent" | "maxRankDense";
/** What a dense `score` (and a hybrid `denseDistance`) is: contract section 10.1. */
export type ScoreKind =
  | "l2"
  | "l2Squared"
  | "cosineDistance"
  | "cosineSimilarity"
  | "negativeInnerProduct"
  | "elasticCosine"
  | "inverseL2Squared";
/** A recomputed relevance level. */
export type Level = "PRECISE" | "HIGHLY_RELEVANT" | "RELEVANT" | "LOW_RELEVANCE" | "NO_MATCH";
/** What post-processing did with a candidate. */
export type Status = "accepted" | "duplicate" | "below_floor" | "doc_cap" | "return_n" | "invalid";
export type Severity = "info" | "warning" | "error";
export type GoldenLevel = "strong" | "medium" | "weak" | "miss";

/**
 * User settings (contract section 2): any subset of the keys. Also accepted as JSON
 * text, and with snake_case spellings (`max_l2_distance`) there.
 */
export interface Settings {
  maxL2Distance?: number;
  returnN?: number;
  maxChunksPerDocument?: number;
  excerptMaxChars?: number;
  preciseThreshold?: number;
  highlyRelevantThreshold?: number;
  referenceThreshold?: number;
  hybridQuality?: HybridQuality;
  scoreKind?: ScoreKind;
  minQuality?: number;
  relativeQuality?: number;
  /** The grade from which a judged document is relevant (integer >= 1, default 1). */
  relevantGrade?: number;
  /** Whether each trace's own recorded `options` apply (default true). */
  useTraceOptions?: boolean;
}

/** A complete configuration: every key of section 2. */
export interface Config {
  maxL2Distance: number;
  returnN: number;
  maxChunksPerDocument: number;
  excerptMaxChars: number;
  preciseThreshold: number;
  highlyRelevantThreshold: number;
  referenceThreshold: number;
  hybridQuality: HybridQuality;
  scoreKind: ScoreKind;
  minQuality: number;
  relativeQuality: number;
  relevantGrade: number;
}

/** A finding about one trace, located by a JSON pointer when it has a place. */
export interface Diagnostic {
  severity: Severity;
  /** A stable kebab-case identifier, e.g. `invalid-rank`. */
  code: string;
  message: string;
  path: string | null;
}

/** The kind of an input error (`inputErrorsOmitted` counts by it). */
export type InputErrorCode =
  | "malformed-json"
  | "not-utf8"
  | "empty-document"
  | "not-a-trace"
  | "missing-candidates"
  | "missing-evidence"
  | "list-not-array"
  | "unusable";

/** An input that could not be read at all, located by line and column where known. */
export interface InputError {
  source: string;
  line: number | null;
  column: number | null;
  path: string | null;
  /** The kind of error: what errors beyond the listed ones are counted under. */
  code: InputErrorCode;
  message: string;
  /** The offending line, or a window of a long one. */
  lineText: string | null;
  /** Where the caret goes under `lineText` (0-based characters). */
  caret: number | null;
}

/** What one document contributed. */
export interface DocumentSummary {
  source: string;
  traces: number;
  candidates: number;
  errors: number;
  /** OTLP spans that are neither retrieval nor reranker spans, skipped; absent when none. */
  skippedSpans?: number;
}

/** Counts over a set of traces; count maps list only keys with a count >= 1. */
export interface ModeSummary {
  traces: number;
  levels: Partial<Record<Level, number>>;
  /** Keyed by the recorded level, trimmed and uppercased. */
  recordedLevels: Record<string, number>;
  /** `"FROM->TO"`, recorded -> recomputed. */
  transitions: Record<string, number>;
  lowQuality: number;
  retryUnfiltered: number;
  levelDiffers: number;
}

/** The whole batch, and the same counts per canonical mode. */
export interface Summary extends ModeSummary {
  byMode: { dense: ModeSummary; hybrid: ModeSummary };
}

/** The fraction of traces whose top quality is at least `threshold`. */
export interface SweepPoint {
  threshold: number;
  fraction: number;
}

/** One kind of finding across the batch. */
export interface BatchWarning {
  code: string;
  severity: Severity;
  traces: number;
  message: string;
  examples: string[];
}

/** Counts per post-processing stage. */
export interface Stages {
  candidates: number;
  invalid: number;
  duplicates: number;
  belowFloor: number;
  docCapped: number;
  returnNCut: number;
  accepted: number;
}

/** Section 5: rank order against the legacy `finalScore` order. */
export interface LegacySummary {
  kendallTau: number;
  promoted: number;
  compared: number;
}

/** A LookupResult's recorded evidence against the recomputed accepted blocks. */
export interface EvidenceComparison {
  recorded: string[];
  recomputed: string[];
  same: boolean;
  missing: string[];
  unexpected: string[];
}

/** One candidate after post-processing. */
export interface Block {
  evidenceKey: string;
  docId: string;
  originalRank: number | null;
  scoreLabel: string | null;
  canonicalLabel: CanonicalLabel | null;
  score: number | null;
  /** The L2 distance the quality read (the score under `scoreKind`); null when none. */
  distance: number | null;
  qualityScore: number;
  status: Status;
  acceptedRank: number | null;
  duplicateOfRank: number | null;
  /** Truncated to `excerptMaxChars` characters plus `…`. */
  excerpt: string | null;
  legacyPosition: number | null;
  displacement: number | null;
  /** The formula with its numbers, e.g. `rank 3 of 5 -> 0.6`. */
  qualityExplanation: string;
  /** Why the block has its status, e.g. `duplicate of rank 1`. */
  statusReason: string;
  legacyAlias: boolean;
  denseDistance: number | null;
  rawScore: number | null;
  baseScore: number | null;
  finalScore: number | null;
  boostReasons: string[] | null;
  breadcrumb: string | null;
  title: string | null;
  sourceType: string | null;
  chunkIndex: number | null;
  hitReasons: string[] | null;
  excerptChars: number;
  excerptTruncated: boolean;
  inputIndex: number;
  /** A reranker span's block: its 1-based position among the reranker's input documents. */
  inputRank?: number | null;
  rankFromPosition: boolean;
  extra: Record<string, unknown> | null;
}

/** One trace under its effective configuration. */
export interface TraceAnalysis {
  /** `requestId`, else `#<position>`. */
  name: string;
  kind: "RerankTrace" | "LookupResult";
  mode: CanonicalLabel | null;
  requestId: string | null;
  query: string | null;
  config: Config;
  relevanceLevel: Level;
  recordedRelevanceLevel: string | null;
  topQuality: number | null;
  /** The score floor: max(minQuality, relativeQuality x the best valid quality). */
  floor: number;
  lowQuality: boolean;
  recordedLowQuality: boolean | null;
  retryUnfiltered: boolean;
  legacyLabels: Record<string, number>;
  blocks: Block[];
  legacy: LegacySummary | null;
  diagnostics: Diagnostic[];
  source: string;
  line: number | null;
  pointer: string;
  position: number;
  caseId: string | null;
  categoryFilter: string | null;
  lookupQuery: string | null;
  recordedTopSimilarity: number | null;
  levelDiffers: boolean;
  lowQualityDiffers: boolean;
  stages: Stages;
  evidenceComparison: EvidenceComparison | null;
  nApproximated: boolean;
  lowQualityGateInert: boolean;
  usedTraceOptions: boolean;
  extra: Record<string, unknown>;
}

/** The whole analysis, as `ragtrace analyze --sweep` writes it (`Analysis.toJSON()`). */
export interface AnalysisObject {
  config: Config;
  traces: TraceAnalysis[];
  summary: Summary;
  sweep: SweepPoint[];
  warnings: BatchWarning[];
  /** The first 1,000 input errors; those after are counted in `inputErrorsOmitted`. */
  inputErrors: InputError[];
  /** Input errors after the first 1,000, counted by code; absent when all are listed. */
  inputErrorsOmitted?: Record<string, number>;
  documents: DocumentSummary[];
}

/** Golden-set counts per level; always all four keys. */
export interface LevelCounts {
  strong: number;
  medium: number;
  weak: number;
  miss: number;
}

export interface GoldenSummary {
  cases: number;
  levels: LevelCounts;
  meanRecall: number;
  meanPrecision: number;
  meanReciprocalRank: number;
  meanNdcg: number;
  meanAveragePrecision: number;
}

/** One case's verdict and the evidence behind it. */
export interface CaseReport {
  caseId: string;
  query: string | null;
  traceName: string | null;
  linkedBy: "caseId" | "query" | null;
  level: GoldenLevel;
  docHit: boolean;
  breadcrumbHit: boolean;
  coverage: number | null;
  evidenceHit: boolean;
  docRanking: string[];
  matchedDocIds: string[];
  matchedBreadcrumbs: string[];
  matchedKeywords: string[];
  expectedDocIds: string[];
  missingDocIds: string[];
  unexpectedDocIds: string[];
  missingKeywords: string[];
  k: number;
  recall: number;
  precision: number;
  reciprocalRank: number;
  ndcg: number;
  averagePrecision: number;
  note: string | null;
  notes: string | null;
  /** The case's graded judgments `{docId: grade}` as read; absent without any. */
  judgments?: Record<string, number>;
}

/** `report.json` of contract section 6. */
export interface GoldenReport {
  config: Config;
  summary: GoldenSummary;
  cases: CaseReport[];
  unlinkedTraces: string[];
  diagnostics: Diagnostic[];
  /** Against each score floor (contract section 10.2); absent when evaluated from runs. */
  floorSweep?: FloorSweep;
}

/** One floor of a sweep: mean recall@k over all cases, blocks and NO_MATCH over linked traces. */
export interface FloorPoint {
  floor: number;
  meanRecall: number;
  meanBlocks: number;
  noMatch: number;
}
/** The largest floor of each kind within 0.01 of the recall@k at a floor of 0. */
export interface SuggestedFloors {
  minQuality: number;
  relativeQuality: number;
}
/** `floorSweep`: t = i / 100, i = 0..100, for each floor, the other at its current value. */
export interface FloorSweep {
  minQuality: FloorPoint[];
  relativeQuality: FloorPoint[];
  suggested: SuggestedFloors;
}

// compareRuns: two runs side by side, `compare.json` (contract section 6.2).

/** What two traces were paired by. */
export type PairedBy = "caseId" | "query" | "requestId";
/** A golden metric compared between two runs, in this order in `metrics`. */
export type GoldenMetric = "hit" | "recall" | "precision" | "reciprocalRank" | "ndcg" | "map";

/** The options of `compareRuns` (they change no trace). */
export interface CompareOptions {
  /** RBO's persistence in (0, 1), default 0.9. */
  rboP: number;
}

/** Trace counts of the two runs. */
export interface RunSizes {
  tracesA: number;
  tracesB: number;
  pairs: number;
}

/** A summary of numbers in [0, 1] over the pairs that have them. */
export interface Distribution {
  count: number;
  mean: number | null;
  median: number | null;
  /** Ten bins of width 0.1; 1.0 is in the last. */
  histogram: number[];
}

/** The batch numbers of a group of pairs. */
export interface GroupSummary {
  /** `all`, or a mode pair such as `dense->hybrid`. */
  group: string;
  pairs: number;
  /** `[i][j]`: pairs at level i in A and j in B, PRECISE first, NO_MATCH last. */
  levelTransitions: number[][];
  levelImproved: number;
  levelWorsened: number;
  overlapDocs: Distribution;
  overlapKeys: Distribution;
  jaccard: Distribution;
  rboExt: Distribution;
  bKeptNone: number;
}

/** Rank-biased overlap (Webber, Moffat and Zobel 2010). */
export interface Rbo {
  ext: number;
  min: number;
  /** `min + residual` is the upper bound. */
  residual: number;
}

/** One pair of traces, numbers only. */
export interface PairComparison {
  /** Index of the trace in run A. */
  a: number;
  /** Index of the trace in run B. */
  b: number;
  pairedBy: PairedBy;
  /** e.g. `dense->hybrid`; an unknown mode is `unknown`. */
  modePair: string;
  /** The cut of overlap@k: the smaller effective `returnN`. */
  k: number;
  docsA: number;
  docsB: number;
  commonDocs: number;
  overlapDocs: number | null;
  overlapKeys: number | null;
  jaccard: number | null;
  rbo: Rbo | null;
  kendallTauB: number | null;
  levelA: Level;
  levelB: Level;
  topQualityA: number | null;
  topQualityB: number | null;
  /** A accepted documents and B kept none of them. */
  bKeptNone: boolean;
  configDiffers: boolean;
}

/** One accepted block of one side of a pair. */
export interface AcceptedItem {
  docId: string;
  evidenceKey: string;
  acceptedRank: number;
  quality: number;
}

/** A document only one side accepted. */
export interface OnlyOneSide {
  docId: string;
  /** Its rank among that side's distinct documents (1-based). */
  docRank: number;
  acceptedRank: number;
  quality: number;
}

/** A configuration key whose effective value differs between a pair's traces. */
export interface ConfigDifference {
  key: string;
  a: number | string;
  b: number | string;
}

/** One pair with its names and lists. */
export interface PairDetail extends PairComparison {
  nameA: string;
  nameB: string;
  query: string | null;
  caseId: string | null;
  acceptedA: AcceptedItem[];
  acceptedB: AcceptedItem[];
  onlyInA: OnlyOneSide[];
  onlyInB: OnlyOneSide[];
  configDifferences: ConfigDifference[];
}

/** A trace of one run that no trace of the other run pairs with. */
export interface UnpairedTrace {
  /** Index of the trace in its run. */
  index: number;
  name: string;
  query: string | null;
  caseId: string | null;
}

/** One value of a case in both runs. */
export interface ValuePair {
  a: number;
  b: number;
  /** `b - a`. */
  delta: number;
}

/** One case present in both evaluations. */
export interface CaseDelta {
  caseId: string;
  levelA: GoldenLevel;
  levelB: GoldenLevel;
  regression: boolean;
  improvement: boolean;
  /** In `GoldenMetric` order. */
  metrics: ValuePair[];
}

/** Student's paired t-test of "the mean difference is 0". */
export interface TTest {
  t: number;
  df: number;
  /** Two-sided. */
  p: number;
}

/** The tests of one metric's paired differences `b - a`. */
export interface Significance {
  permutationP: number;
  /** Holm-adjusted across the metrics. */
  permutationPHolm: number;
  tTest: TTest | null;
  tTestPHolm: number;
  /** The percentile bootstrap interval of the mean difference. */
  ciLow: number | null;
  ciHigh: number | null;
}

/** One metric over the cases both evaluations have. */
export interface MetricSummary {
  metric: GoldenMetric;
  cases: number;
  meanA: number | null;
  meanB: number | null;
  meanDifference: number | null;
  wins: number;
  ties: number;
  losses: number;
  significance: Significance | null;
}

/** How the significance was computed; seeds are hex text (64-bit). */
export interface SignificanceOptions {
  permutations: number;
  permutationSeed: string;
  resamples: number;
  bootstrapSeed: string;
  confidence: number;
}

/** The golden comparison of the two runs' evaluations. */
export interface GoldenComparison {
  /** Cases present in both, in B's order. */
  cases: CaseDelta[];
  onlyInA: string[];
  onlyInB: string[];
  /** `[i][j]`: cases at level i in A and j in B (strong, medium, weak, miss). */
  levelTransitions: number[][];
  regressions: number;
  improvements: number;
  metrics: MetricSummary[];
  significanceOptions: SignificanceOptions | null;
}

/** `compare.json` of `ragtrace compare` (`compareRuns`). */
export interface CompareReport {
  version: number;
  options: CompareOptions;
  /** The settings both runs were analysed under. */
  config: Config;
  runs: RunSizes;
  /** `all` first, then each mode pair present. */
  groups: GroupSummary[];
  /** In run A's order. */
  pairs: PairDetail[];
  unpairedA: UnpairedTrace[];
  unpairedB: UnpairedTrace[];
  /** Indexes into `pairs` where B kept none of A's documents. */
  bKeptNone: number[];
  warnings: string[];
  noCommonQuery: string | null;
  /** With cases only. */
  golden: GoldenComparison | null;
}

// compareRuns with many runs: `compare.json` of `ragtrace compare --run NAME=FILE ...`.

/** One run of the many-run `compareRuns`: its name and its traces (as `analyze` reads them). */
export interface NamedRun {
  name: string;
  input: string | object;
}

/** The options of the many-run `compareRuns`. */
export interface ManyRunOptions {
  /** The reference run of the regression gate, by name (default: the first run). */
  baseline: string | null;
}

/** A case some runs answered and others did not (left out of the statistics). */
export interface PartialCase {
  caseId: string;
  /** The runs that answered it, in the runs' order (empty: none did). */
  presentIn: string[];
}

/** How many cases the comparison rests on. */
export interface ManyRunCases {
  /** Answered by every run: the cases the statistics use. */
  common: number;
  /** Per run, the cases it answered. */
  answered: number[];
  /** Cases whose values differ between runs; null before the tests ran. */
  differing: number | null;
}

/** The randomised Tukey HSD test of one metric. */
export interface TukeyHsd {
  /** `p[i][j]`: the p-value of runs i and j (1 on the diagonal). */
  p: number[][];
}

/** One metric over the runs. */
export interface ManyRunMetric {
  metric: GoldenMetric;
  /** Per run, over the cases every run answered. */
  means: number[];
  /** Per run, the percentile bootstrap interval `[low, high]` of its mean. */
  ci: number[][] | null;
  /** `wins[i][j]`: cases where run i scored higher than run j. */
  wins: number[][];
  /** `ties[i][j]`: cases where they scored the same. */
  ties: number[][];
  tukey: TukeyHsd | null;
  /** Per run, its compact letters: runs sharing a letter are not significantly different. */
  letters: string[];
}

/** `compare.json` of `ragtrace compare --run ...` (the many-run `compareRuns`). */
export interface ManyRunComparison {
  version: number;
  runs: string[];
  /** The reference run of the regression gate. */
  baseline: string;
  /** The settings every run was analysed under. */
  config: Config | null;
  cases: ManyRunCases;
  partialCases: PartialCase[];
  notes: string[];
  /** Two runs differ significantly when their Tukey HSD p is below this (0.05). */
  alpha: number;
  significanceOptions: SignificanceOptions | null;
  /** hit, recall, precision, reciprocalRank, ndcg, map. */
  metrics: ManyRunMetric[];
}

/**
 * Two or more runs of the same queries at once: per metric the means with bootstrap
 * intervals, wins and ties of every pair, the randomised Tukey HSD test and the
 * compact letters (`ragtrace compare --run NAME=FILE ...`).
 */
export function compareRuns(
  runs: NamedRun[],
  cases: string | object,
  config?: Settings | string | null,
  options?: Partial<ManyRunOptions> | null,
): ManyRunComparison;
/**
 * Two runs side by side: the object `ragtrace compare` writes as `compare.json`; with
 * `cases`, both runs are evaluated and the golden deltas are in `golden`.
 */
export function compareRuns(
  a: string | object,
  b: string | object,
  cases?: string | object | null,
  config?: Settings | string | null,
  options?: Partial<CompareOptions> | null,
): CompareReport;

/** Golden outcomes of a group of cases. */
export interface OutcomeCounts {
  n: number;
  strong: number;
  medium: number;
  weak: number;
  miss: number;
}

/** A case no trace answers. */
export interface UnlinkedCase {
  caseId: string;
  query: string | null;
}

export interface Unlinked {
  count: number;
  /** The first few, in cases-file order. */
  first: UnlinkedCase[];
  /** Why they are unlinked; null when every case is linked. */
  reason: string | null;
}

/** One level's cases by golden outcome, by recomputed and by recorded level. */
export interface LevelRow {
  level: Level;
  recomputed: OutcomeCounts;
  recorded: OutcomeCounts;
}

export interface LevelTable {
  rows: LevelRow[];
  recordedUnknown: OutcomeCounts;
  /** Pairs where the higher level has the worse outcome (0: monotone). */
  discordantPairs: number;
  recordedDiscordantPairs: number;
}

/** The gate at one threshold: flagged = top quality < threshold; positive = not found. */
export interface ThresholdPoint {
  threshold: number;
  n: number;
  flagged: number;
  truePositives: number;
  falsePositives: number;
  trueNegatives: number;
  falseNegatives: number;
  precision: number | null;
  recall: number | null;
  falsePositiveRate: number | null;
  f1: number | null;
  youdenJ: number | null;
}

/** A ROC vertex; threshold null for an end no threshold in [0, 1] reaches. */
export interface RocPoint {
  threshold: number | null;
  falsePositiveRate: number;
  truePositiveRate: number;
}

/** The low-quality gate as a classifier of not-found cases in one scope. */
export interface GateCurve {
  scope: "all" | "dense" | "hybrid";
  n: number;
  positives: number;
  negatives: number;
  status: "ok" | "empty" | "oneClass" | "inert";
  message: string | null;
  anecdotal: boolean;
  gateInertTraces: number;
  current: ThresholdPoint;
  points: ThresholdPoint[];
  roc: RocPoint[];
  auc: number | null;
  bestYouden: ThresholdPoint | null;
  bestF1: ThresholdPoint | null;
}

export interface GateScopes {
  all: GateCurve;
  dense: GateCurve;
  hybrid: GateCurve;
}

/** One setting a suggestion changes (a configuration key). */
export interface SettingChange {
  key: string;
  current: number;
  suggested: number;
}

/** A suggested setting with the figures that justify it; no settings: message says why. */
export interface Suggestion {
  rule: "youden" | "f1" | "distanceCut" | "monotoneLevels";
  scope: "all" | "dense" | "hybrid";
  n: number;
  anecdotal: boolean;
  settings: SettingChange[];
  before: ThresholdPoint | null;
  after: ThresholdPoint | null;
  distanceCut: number | null;
  discordantPairsBefore: number | null;
  discordantPairsAfter: number | null;
  message: string;
}

/** `calibration.json` of contract section 6.1. */
export interface Calibration {
  config: Config;
  cases: number;
  linked: number;
  unlinked: Unlinked;
  anecdotal: boolean;
  notes: string[];
  levels: LevelTable;
  gate: GateScopes;
  suggestions: Suggestion[];
  floorSweep?: FloorSweep;
}

// explain: the least change of settings that flips each candidate, level and case,
// `explain.json` (contract section 9).

/** Why a golden case was or was not found. */
export type Cause = "no-trace" | "not-retrieved" | "dropped" | "found";
/** One or two settings with their new values, e.g. `{ returnN: 7 }`. */
export type SettingsChange = Partial<Omit<Settings, "useTraceOptions">>;

/** A change and the level the trace then has. */
export interface LevelIf {
  set: SettingsChange;
  level: Level;
}

/** A change and the `lowQuality` the trace then has. */
export interface LowQualityIf {
  set: SettingsChange;
  lowQuality: boolean;
}

/** A change that accepts or drops a candidate. */
export interface SetIf {
  set: SettingsChange;
}

/** One candidate: its status and the nearest changes that flip it. */
export interface CandidateExplanation {
  index: number;
  docId: string;
  status: Status;
  acceptedIf: SetIf[];
  droppedIf: SetIf[];
  reason: string | null;
}

/** One trace: its level, what moves it, and each candidate's fate. */
export interface TraceExplanation {
  index: number;
  requestId: string | null;
  level: Level;
  lowQuality: boolean;
  levelIf: LevelIf[];
  lowQualityIf: LowQualityIf[];
  reason: string | null;
  candidates: CandidateExplanation[];
}

/** A change that finds a case, and the hit level it then has. */
export interface FoundIf {
  set: SettingsChange;
  hit: GoldenLevel;
}

/** One golden case: why it was or was not found, and what finds it. */
export interface CaseExplanation {
  caseId: string;
  traceIndex: number | null;
  hit: GoldenLevel;
  cause: Cause;
  candidateIndex: number | null;
  candidateStatus: Status | null;
  foundIf: FoundIf[];
  reason: string | null;
}

/** One change among the cases' fixes, applied to the whole batch. */
export interface ChangeImpact {
  set: SettingsChange;
  recovers: number;
  recoveredCases: string[];
  tracesChanged: number;
  levelTransitions: Record<string, number>;
  hitLevelDrops: number;
}

/** Causes counted, and what each fix does to the batch. */
export interface ExplainSummary {
  traces: number;
  cases: number;
  causes: Record<Cause, number>;
  misses: number;
  changes: ChangeImpact[];
}

/** `explain.json` of `ragtrace explain` (`explain`). */
export interface Explanation {
  config: Config;
  traces: TraceExplanation[];
  cases: CaseExplanation[];
  summary: ExplainSummary;
}
