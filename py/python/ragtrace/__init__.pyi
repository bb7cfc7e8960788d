"""Types of the ragtrace package: every result is a plain dict shaped exactly like
the CLI's JSON; these TypedDicts name its keys (contract section 7)."""

import os
from collections.abc import Iterable, Mapping, Sequence
from typing import IO, Any, Literal, Union, overload

from typing_extensions import NotRequired, Self, TypedDict

__version__: str

CanonicalLabel = Literal["dense", "hybrid"]

HybridQuality = Literal["rank", "denseWhenPresent", "maxRankDense"]
ScoreKind = Literal[
    "l2",
    "l2Squared",
    "cosineDistance",
    "cosineSimilarity",
    "negativeInnerProduct",
    "elasticCosine",
    "inverseL2Squared",
]

Level = Literal["PRECISE", "HIGHLY_RELEVANT", "RELEVANT", "LOW_RELEVANCE", "NO_MATCH"]

Status = Literal["accepted", "duplicate", "below_floor", "doc_cap", "return_n", "invalid"]

Severity = Literal["info", "warning", "error"]

GoldenLevel = Literal["strong", "medium", "weak", "miss"]

class Settings(TypedDict, total=False):
    """User settings (contract section 2): any subset of the keys (snake_case spellings such as
    ``max_l2_distance`` are accepted too)."""
    maxL2Distance: float
    returnN: int
    maxChunksPerDocument: int
    excerptMaxChars: int
    preciseThreshold: float
    highlyRelevantThreshold: float
    referenceThreshold: float
    hybridQuality: HybridQuality
    scoreKind: ScoreKind
    minQuality: float
    relativeQuality: float
    relevantGrade: int
    useTraceOptions: bool


class Config(TypedDict):
    """A complete configuration: every key of section 2."""
    maxL2Distance: float
    returnN: int
    maxChunksPerDocument: int
    excerptMaxChars: int
    preciseThreshold: float
    highlyRelevantThreshold: float
    referenceThreshold: float
    hybridQuality: HybridQuality
    scoreKind: ScoreKind
    minQuality: float
    relativeQuality: float
    relevantGrade: int


class Diagnostic(TypedDict):
    """A finding about one trace, located by a JSON pointer when it has a place."""
    severity: Severity
    code: str
    message: str
    path: str | None


InputErrorCode = Literal[
    "malformed-json",
    "not-utf8",
    "empty-document",
    "not-a-trace",
    "missing-candidates",
    "missing-evidence",
    "list-not-array",
    "unusable",
]


class InputErrorRecord(TypedDict):
    """An input that could not be read at all, located by line and column where known."""
    source: str
    line: int | None
    column: int | None
    path: str | None
    code: InputErrorCode
    message: str
    lineText: str | None
    caret: int | None


class DocumentSummary(TypedDict):
    """What one document contributed."""
    source: str
    traces: int
    candidates: int
    errors: int
    skippedSpans: NotRequired[int]


class ModeSummary(TypedDict):
    """Counts over a set of traces; count maps list only keys with a count >= 1."""
    traces: int
    levels: dict[str, int]
    recordedLevels: dict[str, int]
    transitions: dict[str, int]
    lowQuality: int
    retryUnfiltered: int
    levelDiffers: int


class ByMode(TypedDict):
    dense: ModeSummary
    hybrid: ModeSummary


class Summary(ModeSummary):
    """The whole batch, and the same counts per canonical mode."""
    byMode: ByMode


class SweepPoint(TypedDict):
    """The fraction of traces whose top quality is at least `threshold`."""
    threshold: float
    fraction: float


class BatchWarning(TypedDict):
    """One kind of finding across the batch."""
    code: str
    severity: Severity
    traces: int
    message: str
    examples: list[str]


class Stages(TypedDict):
    """Counts per post-processing stage."""
    candidates: int
    invalid: int
    duplicates: int
    belowFloor: int
    docCapped: int
    returnNCut: int
    accepted: int


class LegacySummary(TypedDict):
    """Section 5: rank order against the legacy `finalScore` order."""
    kendallTau: float
    promoted: int
    compared: int


class EvidenceComparison(TypedDict):
    """A LookupResult's recorded evidence against the recomputed accepted blocks."""
    recorded: list[str]
    recomputed: list[str]
    same: bool
    missing: list[str]
    unexpected: list[str]


class Block(TypedDict):
    """One candidate after post-processing."""
    evidenceKey: str
    docId: str
    originalRank: int | None
    scoreLabel: str | None
    canonicalLabel: CanonicalLabel | None
    score: float | None
    distance: float | None
    qualityScore: float
    status: Status
    acceptedRank: int | None
    duplicateOfRank: int | None
    excerpt: str | None
    legacyPosition: int | None
    displacement: int | None
    qualityExplanation: str
    statusReason: str
    legacyAlias: bool
    denseDistance: float | None
    rawScore: float | None
    baseScore: float | None
    finalScore: float | None
    boostReasons: list[str] | None
    breadcrumb: str | None
    title: str | None
    sourceType: str | None
    chunkIndex: int | None
    hitReasons: list[str] | None
    excerptChars: int
    excerptTruncated: bool
    inputIndex: int
    inputRank: NotRequired[int | None]
    rankFromPosition: bool
    extra: dict[str, Any] | None


class TraceAnalysis(TypedDict):
    """One trace under its effective configuration."""
    name: str
    kind: Literal["RerankTrace", "LookupResult"]
    mode: CanonicalLabel | None
    requestId: str | None
    query: str | None
    config: Config
    relevanceLevel: Level
    recordedRelevanceLevel: str | None
    topQuality: float | None
    floor: float
    lowQuality: bool
    recordedLowQuality: bool | None
    retryUnfiltered: bool
    legacyLabels: dict[str, int]
    blocks: list[Block]
    legacy: LegacySummary | None
    diagnostics: list[Diagnostic]
    source: str
    line: int | None
    pointer: str
    position: int
    caseId: str | None
    categoryFilter: str | None
    lookupQuery: str | None
    recordedTopSimilarity: float | None
    levelDiffers: bool
    lowQualityDiffers: bool
    stages: Stages
    evidenceComparison: EvidenceComparison | None
    nApproximated: bool
    lowQualityGateInert: bool
    usedTraceOptions: bool
    extra: dict[str, Any]


class AnalysisObject(TypedDict):
    """The whole analysis, as `ragtrace analyze --sweep` writes it (`Analysis.to_dict()`)."""
    config: Config
    traces: list[TraceAnalysis]
    summary: Summary
    sweep: NotRequired[list[SweepPoint]]
    warnings: list[BatchWarning]
    inputErrors: list[InputErrorRecord]
    inputErrorsOmitted: NotRequired[dict[str, int]]
    documents: list[DocumentSummary]


class LevelCounts(TypedDict):
    """Golden-set counts per level; always all four keys."""
    strong: int
    medium: int
    weak: int
    miss: int


class GoldenSummary(TypedDict):
    cases: int
    levels: LevelCounts
    meanRecall: float
    meanPrecision: float
    meanReciprocalRank: float
    meanNdcg: float
    meanAveragePrecision: float


class CaseReport(TypedDict):
    """One case's verdict and the evidence behind it."""
    caseId: str
    query: str | None
    traceName: str | None
    linkedBy: Literal["caseId", "query"] | None
    level: GoldenLevel
    docHit: bool
    breadcrumbHit: bool
    coverage: float | None
    evidenceHit: bool
    docRanking: list[str]
    matchedDocIds: list[str]
    matchedBreadcrumbs: list[str]
    matchedKeywords: list[str]
    expectedDocIds: list[str]
    missingDocIds: list[str]
    unexpectedDocIds: list[str]
    missingKeywords: list[str]
    k: int
    recall: float
    precision: float
    reciprocalRank: float
    ndcg: float
    averagePrecision: float
    note: str | None
    notes: str | None
    judgments: NotRequired[dict[str, int]]


class FloorPoint(TypedDict):
    """One floor of a sweep (contract section 10.2)."""
    floor: float
    meanRecall: float
    meanBlocks: float
    noMatch: int


class SuggestedFloors(TypedDict):
    minQuality: float
    relativeQuality: float


class FloorSweep(TypedDict):
    """`floorSweep` of report.json and calibration.json (contract section 10.2)."""
    minQuality: list[FloorPoint]
    relativeQuality: list[FloorPoint]
    suggested: SuggestedFloors


class GoldenReport(TypedDict):
    """`report.json` of contract section 6."""
    config: Config
    summary: GoldenSummary
    cases: list[CaseReport]
    unlinkedTraces: list[str]
    diagnostics: list[Diagnostic]
    floorSweep: NotRequired[FloorSweep]


PairedBy = Literal["caseId", "query", "requestId"]

GoldenMetric = Literal["hit", "recall", "precision", "reciprocalRank", "ndcg", "map"]

class CompareOptions(TypedDict):
    """The options of `compare` (they change no trace)."""
    rboP: float


class RunSizes(TypedDict):
    """Trace counts of the two runs."""
    tracesA: int
    tracesB: int
    pairs: int


class Distribution(TypedDict):
    """A summary of numbers in [0, 1] over the pairs that have them."""
    count: int
    mean: float | None
    median: float | None
    histogram: list[int]


class GroupSummary(TypedDict):
    """The batch numbers of a group of pairs."""
    group: str
    pairs: int
    levelTransitions: list[list[int]]
    levelImproved: int
    levelWorsened: int
    overlapDocs: Distribution
    overlapKeys: Distribution
    jaccard: Distribution
    rboExt: Distribution
    bKeptNone: int


class Rbo(TypedDict):
    """Rank-biased overlap (Webber, Moffat and Zobel 2010)."""
    ext: float
    min: float
    residual: float


class PairComparison(TypedDict):
    """One pair of traces, numbers only."""
    a: int
    b: int
    pairedBy: PairedBy
    modePair: str
    k: int
    docsA: int
    docsB: int
    commonDocs: int
    overlapDocs: float | None
    overlapKeys: float | None
    jaccard: float | None
    rbo: Rbo | None
    kendallTauB: float | None
    levelA: Level
    levelB: Level
    topQualityA: float | None
    topQualityB: float | None
    bKeptNone: bool
    configDiffers: bool


class AcceptedItem(TypedDict):
    """One accepted block of one side of a pair."""
    docId: str
    evidenceKey: str
    acceptedRank: int
    quality: float


class OnlyOneSide(TypedDict):
    """A document only one side accepted."""
    docId: str
    docRank: int
    acceptedRank: int
    quality: float


class ConfigDifference(TypedDict):
    """A configuration key whose effective value differs between a pair's traces."""
    key: str
    a: float | str
    b: float | str


class PairDetail(PairComparison):
    """One pair with its names and lists."""
    nameA: str
    nameB: str
    query: str | None
    caseId: str | None
    acceptedA: list[AcceptedItem]
    acceptedB: list[AcceptedItem]
    onlyInA: list[OnlyOneSide]
    onlyInB: list[OnlyOneSide]
    configDifferences: list[ConfigDifference]


class UnpairedTrace(TypedDict):
    """A trace of one run that no trace of the other run pairs with."""
    index: int
    name: str
    query: str | None
    caseId: str | None


class ValuePair(TypedDict):
    """One value of a case in both runs."""
    a: float
    b: float
    delta: float


class CaseDelta(TypedDict):
    """One case present in both evaluations."""
    caseId: str
    levelA: GoldenLevel
    levelB: GoldenLevel
    regression: bool
    improvement: bool
    metrics: list[ValuePair]


class TTest(TypedDict):
    """Student's paired t-test of "the mean difference is 0"."""
    t: float
    df: float
    p: float


class Significance(TypedDict):
    """The tests of one metric's paired differences `b - a`."""
    permutationP: float
    permutationPHolm: float
    tTest: TTest | None
    tTestPHolm: float
    ciLow: float | None
    ciHigh: float | None


class MetricSummary(TypedDict):
    """One metric over the cases both evaluations have."""
    metric: GoldenMetric
    cases: int
    meanA: float | None
    meanB: float | None
    meanDifference: float | None
    wins: int
    ties: int
    losses: int
    significance: Significance | None


class SignificanceOptions(TypedDict):
    """How the significance was computed; seeds are hex text (64-bit)."""
    permutations: int
    permutationSeed: str
    resamples: int
    bootstrapSeed: str
    confidence: float


class GoldenComparison(TypedDict):
    """The golden comparison of the two runs' evaluations."""
    cases: list[CaseDelta]
    onlyInA: list[str]
    onlyInB: list[str]
    levelTransitions: list[list[int]]
    regressions: int
    improvements: int
    metrics: list[MetricSummary]
    significanceOptions: SignificanceOptions | None


class CompareReport(TypedDict):
    """`compare.json` of `ragtrace compare` (`compare`)."""
    version: int
    options: CompareOptions
    config: Config
    runs: RunSizes
    groups: list[GroupSummary]
    pairs: list[PairDetail]
    unpairedA: list[UnpairedTrace]
    unpairedB: list[UnpairedTrace]
    bKeptNone: list[int]
    warnings: list[str]
    noCommonQuery: str | None
    golden: GoldenComparison | None


class PartialCase(TypedDict):
    """A case some runs answered and others did not (left out of the statistics)."""
    caseId: str
    presentIn: list[str]


class ManyRunCases(TypedDict):
    """How many cases a many-run comparison rests on."""
    common: int
    answered: list[int]
    differing: int | None


class TukeyHsd(TypedDict):
    """The randomised Tukey HSD test of one metric: `p[i][j]` of runs i and j."""
    p: list[list[float]]


class ManyRunMetric(TypedDict):
    """One metric over the runs: means, intervals, wins and ties, the test, the letters."""
    metric: GoldenMetric
    means: list[float]
    ci: list[list[float]] | None
    wins: list[list[int]]
    ties: list[list[int]]
    tukey: TukeyHsd | None
    letters: list[str]


class ManyRunComparison(TypedDict):
    """`compare.json` of `ragtrace compare --run NAME=FILE ...` (`compare_many`)."""
    version: int
    runs: list[str]
    baseline: str
    config: Config | None
    cases: ManyRunCases
    partialCases: list[PartialCase]
    notes: list[str]
    alpha: float
    significanceOptions: SignificanceOptions | None
    metrics: list[ManyRunMetric]


class OutcomeCounts(TypedDict):
    """Golden outcomes of a group of cases."""
    n: int
    strong: int
    medium: int
    weak: int
    miss: int


class UnlinkedCase(TypedDict):
    """A case no trace answers."""
    caseId: str
    query: str | None


class Unlinked(TypedDict):
    count: int
    first: list[UnlinkedCase]
    reason: str | None


class LevelRow(TypedDict):
    """One level's cases by golden outcome, by recomputed and by recorded level."""
    level: Level
    recomputed: OutcomeCounts
    recorded: OutcomeCounts


class LevelTable(TypedDict):
    rows: list[LevelRow]
    recordedUnknown: OutcomeCounts
    discordantPairs: int
    recordedDiscordantPairs: int


class ThresholdPoint(TypedDict):
    """The gate at one threshold: flagged = top quality < threshold; positive = not found."""
    threshold: float
    n: int
    flagged: int
    truePositives: int
    falsePositives: int
    trueNegatives: int
    falseNegatives: int
    precision: float | None
    recall: float | None
    falsePositiveRate: float | None
    f1: float | None
    youdenJ: float | None


class RocPoint(TypedDict):
    """A ROC vertex; threshold null for an end no threshold in [0, 1] reaches."""
    threshold: float | None
    falsePositiveRate: float
    truePositiveRate: float


class GateCurve(TypedDict):
    """The low-quality gate as a classifier of not-found cases in one scope."""
    scope: Literal["all", "dense", "hybrid"]
    n: int
    positives: int
    negatives: int
    status: Literal["ok", "empty", "oneClass", "inert"]
    message: str | None
    anecdotal: bool
    gateInertTraces: int
    current: ThresholdPoint
    points: list[ThresholdPoint]
    roc: list[RocPoint]
    auc: float | None
    bestYouden: ThresholdPoint | None
    bestF1: ThresholdPoint | None


class GateScopes(TypedDict):
    all: GateCurve
    dense: GateCurve
    hybrid: GateCurve


class SettingChange(TypedDict):
    """One setting a suggestion changes (a configuration key)."""
    key: str
    current: float
    suggested: float


class Suggestion(TypedDict):
    """A suggested setting with the figures that justify it; no settings: message says why."""
    rule: Literal["youden", "f1", "distanceCut", "monotoneLevels"]
    scope: Literal["all", "dense", "hybrid"]
    n: int
    anecdotal: bool
    settings: list[SettingChange]
    before: ThresholdPoint | None
    after: ThresholdPoint | None
    distanceCut: float | None
    discordantPairsBefore: int | None
    discordantPairsAfter: int | None
    message: str


class Calibration(TypedDict):
    """`calibration.json` of contract section 6.1."""
    config: Config
    cases: int
    linked: int
    unlinked: Unlinked
    anecdotal: bool
    notes: list[str]
    levels: LevelTable
    gate: GateScopes
    suggestions: list[Suggestion]
    floorSweep: NotRequired[FloorSweep]


Cause = Literal["no-trace", "not-retrieved", "dropped", "found"]


class LevelIf(TypedDict):
    """A change (one or two settings, as `config` takes them) and the trace's level under it."""
    set: Settings
    level: Level


class LowQualityIf(TypedDict):
    """A change and the trace's `lowQuality` under it."""
    set: Settings
    lowQuality: bool


class SetIf(TypedDict):
    """A change, alone."""
    set: Settings


class CandidateExplanation(TypedDict):
    """One candidate's status and the nearest changes that flip it."""
    index: int
    docId: str
    status: Status
    acceptedIf: list[SetIf]
    droppedIf: list[SetIf]
    reason: str | None


class TraceExplanation(TypedDict):
    """One trace's level and `lowQuality`, what moves them, and its candidates."""
    index: int
    requestId: str | None
    level: Level
    lowQuality: bool
    levelIf: list[LevelIf]
    lowQualityIf: list[LowQualityIf]
    reason: str | None
    candidates: list[CandidateExplanation]


class FoundIf(TypedDict):
    """A change that finds a case, and the case's hit level under it."""
    set: Settings
    hit: GoldenLevel


class CaseExplanation(TypedDict):
    """One golden case: why it was or was not found, and what finds it."""
    caseId: str
    traceIndex: int | None
    hit: GoldenLevel
    cause: Cause
    candidateIndex: int | None
    candidateStatus: Status | None
    foundIf: list[FoundIf]
    reason: str | None


CauseCounts = TypedDict("CauseCounts", {"dropped": int, "found": int, "no-trace": int, "not-retrieved": int})
"""Cases per cause; always all four keys."""


class ChangeImpact(TypedDict):
    """One change among the cases' fixes, applied to the whole batch."""
    set: Settings
    recovers: int
    recoveredCases: list[str]
    tracesChanged: int
    levelTransitions: dict[str, int]
    hitLevelDrops: int


class ExplainSummary(TypedDict):
    traces: int
    cases: int
    causes: CauseCounts
    misses: int
    changes: list[ChangeImpact]


class Explanation(TypedDict):
    """`explain.json` of contract section 9 (`explain`)."""
    config: Config
    traces: list[TraceExplanation]
    cases: list[CaseExplanation]
    summary: ExplainSummary



class Row(TypedDict):
    """One trace as a flat row (`Analysis.rows()`), for a DataFrame."""
    name: str
    requestId: str | None
    mode: CanonicalLabel | None
    relevanceLevel: Level
    recordedRelevanceLevel: str | None
    topQuality: float | None
    candidates: int
    accepted: int
    lowQuality: bool
    retryUnfiltered: bool
    levelDiffers: bool
    lowQualityDiffers: bool
    lowQualityGateInert: bool
    source: str
    line: int | None


class BatchView(TypedDict):
    """`ragtrace analyze --summary --sweep`'s object (`Partial.summary()`)."""
    config: Config
    summary: Summary
    sweep: NotRequired[list[SweepPoint]]
    warnings: list[BatchWarning]
    inputErrors: list[InputErrorRecord]
    inputErrorsOmitted: NotRequired[dict[str, int]]
    documents: list[DocumentSummary]


Source = Union[str, os.PathLike[str], bytes, bytearray, IO[bytes], dict[str, Any], list[Any]]
"""A path (.json or JSON Lines), the bytes of such a document, a binary file object,
or already parsed JSON data."""

ConfigArg = Union[Settings, dict[str, Any], None]


class InputError(ValueError):
    """A document that cannot be read at all (or a cases file with fatal problems)."""
    source: str | None
    line: int | None
    column: int | None
    path: str | None


class ConfigError(ValueError):
    """An invalid setting; `key` names it (None when the whole configuration is wrong)."""
    key: str | None


class Analysis:
    """The analysis of a batch under one set of settings (`analyze`'s result)."""
    def __len__(self) -> int: ...
    def summary(self) -> Summary: ...
    def traces(self, start: int | None = None, stop: int | None = None) -> list[TraceAnalysis]: ...
    def trace(self, index: int) -> TraceAnalysis: ...
    def rows(self) -> list[Row]: ...
    def config(self) -> Config: ...
    def sweep(self) -> list[SweepPoint]: ...
    def warnings(self) -> list[BatchWarning]: ...
    def input_errors(self) -> list[InputErrorRecord]: ...
    def input_errors_omitted(self) -> dict[str, int]: ...
    def documents(self) -> list[DocumentSummary]: ...
    def to_dict(self) -> AnalysisObject: ...


def analyze(source: Source, config: ConfigArg = None, *, sweep: bool = True) -> Analysis: ...
def evaluate(cases: Source, runs: Source | CaseMatches, config: ConfigArg = None) -> GoldenReport: ...
def compare(
    a: Source, b: Source, cases: Source | None = None, config: ConfigArg = None, *, rbo_p: float = 0.9
) -> CompareReport: ...
def compare_many(
    runs: Mapping[str, Source] | Sequence[tuple[str, Source]],
    cases: Source,
    config: ConfigArg = None,
    *,
    baseline: str | None = None,
) -> ManyRunComparison: ...
def calibrate(cases: Source, runs: Source, config: ConfigArg = None) -> Calibration: ...
def explain(source: Source, cases: Source | None = None, config: ConfigArg = None) -> Explanation: ...
def default_config() -> Config: ...
def canonical_label(label: str) -> CanonicalLabel | None: ...
def quality_score(
    label: str,
    score: float | None,
    rank: int,
    batch_size: int,
    config: ConfigArg = None,
    dense_distance: float | None = None,
) -> float: ...


class Partial:
    """The batch view of part of a batch under one configuration, as counts that
    merge exactly (`partial`'s and `merge`'s result)."""
    def summary(self, *, sweep: bool = True) -> BatchView: ...
    def __len__(self) -> int: ...
    def to_bytes(self) -> bytes: ...
    @staticmethod
    def from_bytes(data: bytes | bytearray) -> Partial: ...
    def __reduce__(self) -> tuple[Any, tuple[bytes]]: ...


def partial(
    lines: Iterable[str | bytes | bytearray],
    config: ConfigArg = None,
    *,
    source: str | None = None,
    first_line: int = 1,
) -> Partial: ...
@overload
def merge(partials: Iterable[Partial]) -> Partial: ...
@overload
def merge(partials: Iterable[CaseMatches]) -> CaseMatches: ...


class CaseMatches:
    """What a golden evaluation needs of part of a batch (`case_matches`' result);
    merged with `merge`, evaluated with `evaluate(cases, matches)`."""
    def __len__(self) -> int: ...
    def to_bytes(self) -> bytes: ...
    @staticmethod
    def from_bytes(data: bytes | bytearray) -> CaseMatches: ...
    def __reduce__(self) -> tuple[Any, tuple[bytes]]: ...


def case_matches(
    cases: Source,
    lines: Iterable[str | bytes | bytearray],
    config: ConfigArg = None,
    *,
    source: str | None = None,
    first_line: int = 1,
) -> CaseMatches: ...
