// The result and argument types of ragtrace's JavaScript API (contract section 7).
// wasm-bindgen appends this file to the package's generated .d.ts, where the
// exported functions and the Analysis class name these types. Keys and nullability
// follow the CLI's JSON; js/tests/declarations.rs checks every interface's keys
// against real output, and scripts/check-types.sh compiles types/usage.ts with tsc.

/** "dense" (an L2 distance) or "hybrid" (a rank-fused score). */
export type CanonicalLabel = "dense" | "hybrid";
/** How a hybrid hit's quality is computed (contract section 3.2). */
export type HybridQuality = "rank" | "denseWhenPresent" | "maxRankDense";
/** A recomputed relevance level. */
export type Level = "PRECISE" | "HIGHLY_RELEVANT" | "RELEVANT" | "LOW_RELEVANCE" | "NO_MATCH";
/** What post-processing did with a candidate. */
export type Status = "accepted" | "duplicate" | "doc_cap" | "return_n" | "invalid";
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
}

/** A finding about one trace, located by a JSON pointer when it has a place. */
export interface Diagnostic {
  severity: Severity;
  /** A stable kebab-case identifier, e.g. `invalid-rank`. */
  code: string;
  message: string;
  path: string | null;
}

/** An input that could not be read at all, located by line and column where known. */
export interface InputError {
  source: string;
  line: number | null;
  column: number | null;
  path: string | null;
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
  inputErrors: InputError[];
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
  note: string | null;
  notes: string | null;
}

/** `report.json` of contract section 6. */
export interface GoldenReport {
  config: Config;
  summary: GoldenSummary;
  cases: CaseReport[];
  unlinkedTraces: string[];
  diagnostics: Diagnostic[];
}

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
}
