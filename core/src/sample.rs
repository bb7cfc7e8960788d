//! Deterministic generated traces for benchmarks, tests and the page's sample.
//!
//! No `rand` dependency: a SplitMix64 generator seeded by the caller, so the same
//! arguments always give the same text on every platform.

use serde::Serialize;
use serde_json::{json, Value};

/// SplitMix64: tiny, fast, good enough to vary test data.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n` > 0).
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    /// Uniform in `[0, 1)`.
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

const WORDS: &[&str] = &[
    "redis",
    "eviction",
    "session",
    "timeout",
    "retry",
    "gateway",
    "certificate",
    "listener",
    "payment",
    "callback",
    "queue",
    "consumer",
    "kubernetes",
    "memory",
    "limit",
    "pod",
    "buffer",
    "pool",
    "index",
    "shard",
    "replica",
    "backup",
    "restore",
    "latency",
    "支付",
    "超时",
    "回调",
    "重试",
    "订单",
    "网关",
    "证书",
    "对账",
];

const DOMAINS: &[&str] = &["Ops", "Apps", "Payments", "Platform", "支付"];

fn sentence(rng: &mut Rng, words: usize) -> String {
    let mut out = String::new();
    for i in 0..words {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(WORDS[rng.below(WORDS.len() as u64) as usize]);
    }
    out
}

/// One generated trace as a JSON value; `index` names it.
fn trace(rng: &mut Rng, index: usize, candidates: usize) -> Value {
    let hybrid = rng.chance(60);
    let snake = rng.chance(20);
    let key =
        |camel: &'static str, snake_name: &'static str| if snake { snake_name } else { camel };
    let docs = (candidates / 2).max(1) as u64;
    let mut list = Vec::with_capacity(candidates);
    let mut distance = 0.15 + rng.unit() * 0.5;
    for rank in 1..=candidates {
        let doc = rng.below(docs);
        let chunk = rng.below(12);
        // About 5% repeat the previous hit's chunk: duplicates for dedup to remove.
        let (doc, chunk) = if rank > 1 && rng.chance(5) {
            (doc.saturating_sub(0), chunk)
        } else {
            (doc, chunk)
        };
        distance += rng.unit() * 0.12;
        let label = match (hybrid, rng.below(10)) {
            (true, 0) => "rrf_fused",
            (true, 1) => "bm25_only_no_dense",
            (true, _) => "hybrid",
            (false, 0) => "l2_distance",
            (false, _) => "dense",
        };
        let doc_id = format!("doc-{index}-{doc}");
        let mut c = serde_json::Map::new();
        c.insert(
            key("evidenceKey", "evidence_key").into(),
            json!(format!("{doc_id}#{chunk}")),
        );
        c.insert(key("docId", "doc_id").into(), json!(doc_id));
        c.insert(key("chunkIndex", "chunk_index").into(), json!(chunk));
        let domain = DOMAINS[rng.below(DOMAINS.len() as u64) as usize];
        c.insert(
            "breadcrumb".into(),
            json!(format!(
                "{domain} > {} > {}",
                sentence(rng, 1),
                sentence(rng, 1)
            )),
        );
        c.insert("title".into(), json!(sentence(rng, 3)));
        let words = 4 + rng.below(12) as usize;
        c.insert("excerpt".into(), json!(sentence(rng, words)));
        c.insert(key("originalRank", "original_rank").into(), json!(rank));
        c.insert(key("scoreLabel", "score_label").into(), json!(label));
        if hybrid {
            let rrf = 1.0 / (60.0 + rank as f64);
            c.insert("score".into(), json!(rrf));
            c.insert(key("rawScore", "raw_score").into(), json!(rrf));
            if rng.chance(70) {
                c.insert(
                    key("denseDistance", "dense_distance").into(),
                    json!(distance),
                );
            }
        } else if rng.chance(97) {
            c.insert("score".into(), json!(distance));
        } else {
            c.insert("score".into(), Value::Null);
        }
        if rng.chance(50) {
            let base = (1.2 - distance).max(0.0);
            let boost = if rng.chance(30) {
                0.15 + rng.unit() * 0.2
            } else {
                0.0
            };
            c.insert(key("baseScore", "base_score").into(), json!(base));
            c.insert(key("finalScore", "final_score").into(), json!(base + boost));
            if boost > 0.0 {
                c.insert(
                    key("boostReasons", "boost_reasons").into(),
                    json!(["keyword:+0.15"]),
                );
            }
        }
        if rng.chance(30) {
            c.insert(
                key("hitReasons", "hit_reasons").into(),
                json!(["keyword match"]),
            );
        }
        list.push(Value::Object(c));
    }
    let levels = [
        "PRECISE",
        "HIGHLY_RELEVANT",
        "RELEVANT",
        "LOW_RELEVANCE",
        "NO_MATCH",
    ];
    let mut t = serde_json::Map::new();
    t.insert("kind".into(), json!("RerankTrace"));
    t.insert(
        key("requestId", "request_id").into(),
        json!(format!("gen-{index:05}")),
    );
    t.insert("query".into(), json!(sentence(rng, 5)));
    t.insert(
        "mode".into(),
        json!(if hybrid { "hybrid" } else { "dense" }),
    );
    if rng.chance(40) {
        t.insert(
            key("categoryFilter", "category_filter").into(),
            json!("runbook"),
        );
    }
    if rng.chance(30) {
        t.insert(
            "options".into(),
            json!({ "returnN": 3 + rng.below(4), "maxL2Distance": 1.0 + rng.unit() }),
        );
    }
    t.insert("candidates".into(), Value::Array(list));
    t.insert(
        key("relevanceLevel", "relevance_level").into(),
        json!(levels[rng.below(levels.len() as u64) as usize]),
    );
    t.insert(
        key("lowQuality", "low_quality").into(),
        json!(rng.chance(30)),
    );
    Value::Object(t)
}

fn traces(count: usize, candidates_per_trace: usize, seed: u64) -> Vec<Value> {
    let mut rng = Rng(seed);
    (0..count)
        .map(|i| trace(&mut rng, i + 1, candidates_per_trace))
        .collect()
}

/// `{"traces": [...]}` with `traces` traces of `candidates_per_trace` candidates each:
/// 60% hybrid, some legacy labels, snake_case spellings, finalScores, duplicates,
/// category filters and recorded options. About 300 bytes per candidate.
pub fn generate_batch(trace_count: usize, candidates_per_trace: usize, seed: u64) -> String {
    json!({ "traces": traces(trace_count, candidates_per_trace, seed) }).to_string()
}

/// The traces of [`generate_batch`] with the same arguments, as JSON Lines: one trace
/// object per line, without the line end. Made one trace at a time, so a file of any
/// size (the streamed CLI's benchmark writes a gigabyte) takes the memory of one trace.
pub fn generate_batch_lines(
    trace_count: usize,
    candidates_per_trace: usize,
    seed: u64,
) -> impl Iterator<Item = String> {
    let mut rng = Rng(seed);
    (0..trace_count).map(move |i| trace(&mut rng, i + 1, candidates_per_trace).to_string())
}

/// One case of a generated cases file (contract section 6). Typed rather than built
/// with `json!`: the page ships this code, and the typed form is the smaller one.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct GeneratedCase {
    case_id: String,
    query: String,
    expected_doc_ids: Vec<String>,
    expected_breadcrumbs: Vec<String>,
    expected_keywords: Vec<String>,
    notes: String,
}

#[derive(Serialize)]
struct CasesFile {
    cases: Vec<GeneratedCase>,
}

/// A field of a generated candidate or trace under either spelling.
fn field<'a>(object: &'a Value, camel: &str, snake: &str) -> Option<&'a Value> {
    object.get(camel).or_else(|| object.get(snake))
}

/// A golden cases file (contract section 6) for the batch `generate_batch` makes with
/// the same arguments: one case for every fifth trace, linked by its query, plus one
/// case no trace answers. The expected document is the first candidate's (usually
/// found: strong or medium), a deep candidate's (found or not depending on `returnN`
/// and the per-document cap), both, or a document the trace never retrieved (a miss);
/// keywords come from that candidate's excerpt, and some cases expect its breadcrumb.
pub fn generate_cases(trace_count: usize, candidates_per_trace: usize, seed: u64) -> String {
    let mut rng = Rng(seed ^ 0x00C0_FFEE);
    let mut cases = Vec::new();
    for (i, t) in traces(trace_count, candidates_per_trace, seed)
        .iter()
        .enumerate()
        .step_by(5)
    {
        let Some(candidates) = t.get("candidates").and_then(Value::as_array) else {
            continue;
        };
        if candidates.is_empty() {
            continue;
        }
        let deep = candidates.len() / 2 + rng.below((candidates.len() / 2).max(1) as u64) as usize;
        let doc_of = |at: usize| {
            candidates
                .get(at)
                .and_then(|c| field(c, "docId", "doc_id"))
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        let (kind, expected, source) = match rng.below(10) {
            0..=3 => ("top", vec![doc_of(0)], 0),
            4..=6 => ("deep", vec![doc_of(deep)], deep),
            7 => ("top and deep", vec![doc_of(0), doc_of(deep)], deep),
            _ => (
                "never retrieved",
                vec![Some(format!("doc-absent-{}", i + 1))],
                0,
            ),
        };
        let expected: Vec<String> = expected.into_iter().flatten().collect();
        let candidate = &candidates[source.min(candidates.len() - 1)];
        let keywords: Vec<String> = candidate
            .get("excerpt")
            .and_then(Value::as_str)
            .map(|text| text.split(' ').take(2).map(str::to_owned).collect())
            .unwrap_or_default();
        let breadcrumbs: Vec<String> = if rng.chance(50) {
            candidate
                .get("breadcrumb")
                .and_then(Value::as_str)
                .map(str::to_owned)
                .into_iter()
                .collect()
        } else {
            Vec::new()
        };
        let request = field(t, "requestId", "request_id")
            .and_then(Value::as_str)
            .unwrap_or("");
        cases.push(GeneratedCase {
            case_id: format!("case-{request}"),
            query: t
                .get("query")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned(),
            expected_doc_ids: expected,
            expected_breadcrumbs: breadcrumbs,
            expected_keywords: keywords,
            notes: format!("expects the {kind} document of {request}"),
        });
    }
    cases.push(GeneratedCase {
        case_id: "case-unanswered".to_owned(),
        query: "a question no generated trace asked".to_owned(),
        expected_doc_ids: vec!["doc-absent".to_owned()],
        expected_breadcrumbs: Vec::new(),
        expected_keywords: Vec::new(),
        notes: "no trace has this query: a miss".to_owned(),
    });
    serde_json::to_string_pretty(&CasesFile { cases }).unwrap_or_default()
}

/// Paired runs of the same generated queries, for comparing runs: a dense run, a hybrid
/// run and a cases file, as `(dense, hybrid, cases)` JSON texts. Each query has its own
/// pool of documents; the hybrid run keeps most of the dense run's documents, swaps some
/// neighbours and brings in documents the dense run did not find, so the pairs show every
/// kind of agreement. Every other trace carries a `caseId` (the others pair by query),
/// and one query in ten appears in the dense run only. The cases (one per third query)
/// expect a document both runs find, one only the hybrid run finds, or one only the dense
/// run finds, so the golden deltas go both ways.
pub fn generate_paired_runs(
    queries: usize,
    candidates_per_trace: usize,
    seed: u64,
) -> (String, String, String) {
    let mut rng = Rng(seed ^ 0x0000_0B0D_1E5E);
    let n = candidates_per_trace.max(1);
    let mut dense = Vec::with_capacity(queries);
    let mut hybrid = Vec::with_capacity(queries);
    let mut cases = Vec::new();
    for q in 1..=queries {
        let query = format!("{} {q}", sentence(&mut rng, 4));
        let case_id = (q % 2 == 0).then(|| format!("q-{q:05}"));
        let doc = |d: usize| format!("d{q}-{d}");
        // Dense: documents 0..n in order. Hybrid: the same with neighbours swapped and
        // about a fifth replaced by documents n.. the dense run never saw.
        let dense_docs: Vec<usize> = (0..n).collect();
        let mut hybrid_docs = dense_docs.clone();
        for i in 0..n.saturating_sub(1) {
            if rng.chance(30) {
                hybrid_docs.swap(i, i + 1);
            }
        }
        let mut fresh = n;
        for slot in hybrid_docs.iter_mut() {
            if rng.chance(20) {
                *slot = fresh;
                fresh += 1;
            }
        }
        let mut distance = 0.2 + rng.unit() * 0.6;
        let dense_candidates: Vec<Value> = dense_docs
            .iter()
            .enumerate()
            .map(|(i, &d)| {
                distance += rng.unit() * 0.08;
                json!({
                    "evidenceKey": format!("{}#0", doc(d)), "docId": doc(d),
                    "originalRank": i + 1, "score": distance, "scoreLabel": "dense",
                    "breadcrumb": format!("Ops > {}", sentence(&mut rng, 1)),
                    "excerpt": sentence(&mut rng, 6),
                })
            })
            .collect();
        let hybrid_candidates: Vec<Value> = hybrid_docs
            .iter()
            .enumerate()
            .map(|(i, &d)| {
                let rank = i + 1;
                json!({
                    "evidenceKey": format!("{}#0", doc(d)), "docId": doc(d),
                    "originalRank": rank, "score": 1.0 / (60.0 + rank as f64),
                    "scoreLabel": "hybrid", "denseDistance": 0.2 + 0.05 * rank as f64 + rng.unit() * 0.3,
                    "breadcrumb": format!("Ops > {}", sentence(&mut rng, 1)),
                    "excerpt": sentence(&mut rng, 6),
                })
            })
            .collect();
        let trace = |mode: &str, candidates: Vec<Value>| {
            let mut t = serde_json::Map::new();
            t.insert("kind".into(), json!("RerankTrace"));
            t.insert("requestId".into(), json!(format!("{mode}-{q:05}")));
            if let Some(id) = &case_id {
                t.insert("caseId".into(), json!(id));
            }
            t.insert("query".into(), json!(query));
            t.insert("mode".into(), json!(mode));
            t.insert("candidates".into(), Value::Array(candidates));
            Value::Object(t)
        };
        dense.push(trace("dense", dense_candidates));
        if q % 10 != 0 {
            hybrid.push(trace("hybrid", hybrid_candidates));
        }
        if q % 3 == 0 {
            let both = hybrid_docs
                .iter()
                .find(|d| dense_docs[..n.min(5)].contains(d));
            let hybrid_only = hybrid_docs.iter().find(|&&d| d >= n);
            let dense_only = dense_docs.iter().find(|d| !hybrid_docs.contains(d));
            let (kind, expected) = match rng.below(3) {
                0 => ("both", both),
                1 => ("hybrid only", hybrid_only.or(both)),
                _ => ("dense only", dense_only.or(both)),
            };
            cases.push(GeneratedCase {
                case_id: case_id
                    .clone()
                    .unwrap_or_else(|| format!("by-query-{q:05}")),
                query: query.clone(),
                expected_doc_ids: expected.map(|&d| doc(d)).into_iter().collect(),
                expected_breadcrumbs: Vec::new(),
                expected_keywords: Vec::new(),
                notes: format!("expects a document {kind} found"),
            });
        }
    }
    let text = |traces: Vec<Value>| json!({ "traces": traces }).to_string();
    (
        text(dense),
        text(hybrid),
        serde_json::to_string_pretty(&CasesFile { cases }).unwrap_or_default(),
    )
}

/// Several runs of the same generated queries, for comparing many runs at once: `runs`
/// trace files and one cases file, as `(runs, cases)` JSON texts. Every query has a case
/// expecting two documents; run `r` finds each of them with probability `50 + 6r`
/// percent, at a random rank, so later runs are better on average and neighbouring runs
/// are close. Every query carries a caseId; one query in 97 is missing from the last run.
pub fn generate_many_runs(
    runs: usize,
    queries: usize,
    candidates_per_trace: usize,
    seed: u64,
) -> (Vec<String>, String) {
    let mut rng = Rng(seed ^ 0x006D_616E_7972);
    let n = candidates_per_trace.max(2);
    let mut files: Vec<Vec<Value>> = vec![Vec::with_capacity(queries); runs];
    let mut cases = Vec::with_capacity(queries);
    for q in 1..=queries {
        let query = format!("{} {q}", sentence(&mut rng, 4));
        let case_id = format!("m-{q:05}");
        let doc = |d: usize| format!("d{q}-{d}");
        for (r, file) in files.iter_mut().enumerate() {
            if r + 1 == runs && q % 97 == 0 {
                continue;
            }
            // Documents 2.. are not relevant; each relevant one (0 and 1) takes a random
            // rank when the run finds it.
            let mut ranking: Vec<usize> = (2..n + 2).collect();
            for relevant in 0..2 {
                if rng.chance(50 + 6 * r as u64) {
                    let at = rng.below(n as u64) as usize;
                    ranking.insert(at, relevant);
                }
            }
            ranking.truncate(n);
            let mut distance = 0.2 + rng.unit() * 0.3;
            let candidates: Vec<Value> = ranking
                .iter()
                .enumerate()
                .map(|(i, &d)| {
                    distance += rng.unit() * 0.08;
                    json!({
                        "evidenceKey": format!("{}#0", doc(d)), "docId": doc(d),
                        "originalRank": i + 1, "score": distance, "scoreLabel": "dense",
                    })
                })
                .collect();
            file.push(json!({
                "kind": "RerankTrace", "requestId": format!("run{r}-{q:05}"),
                "caseId": case_id, "query": query, "mode": "dense",
                "candidates": candidates,
            }));
        }
        cases.push(GeneratedCase {
            case_id,
            query,
            expected_doc_ids: vec![doc(0), doc(1)],
            expected_breadcrumbs: Vec::new(),
            expected_keywords: Vec::new(),
            notes: String::new(),
        });
    }
    (
        files
            .into_iter()
            .map(|traces| json!({ "traces": traces }).to_string())
            .collect(),
        serde_json::to_string_pretty(&CasesFile { cases }).unwrap_or_default(),
    )
}

/// Passages of the kind real chunks hold, mixed the way a real corpus mixes them:
/// prose with punctuation and "quotes", Windows paths and regular expressions with
/// backslashes, code with tabs, several languages (accented Latin, CJK) and emoji.
/// Every one needs some escaping or multi-byte UTF-8 in JSON, as real text does.
const PASSAGES: &[&str] = &[
    "If the gateway answers \"504 Gateway Timeout\", raise `proxy_read_timeout` to 60 s; the default (30 s) is too short for batch exports.",
    "Logs live in C:\\ProgramData\\Gateway\\logs\\gateway.log on Windows hosts and in /var/log/gateway/ elsewhere.",
    "The pattern ^\\d{4}-\\d{2}-\\d{2}$ matches an ISO date; escape the dot as \\. when you match file names.",
    "\tif retries > max_retries:\n\t\traise TimeoutError(\"payment callback did not arrive\")\n\treturn backoff * 2",
    "Le délai d'attente du résolveur est dépassé : vérifiez « upstream.conf » et redémarrez le service (coût : ~2 min).",
    "Die Größe des Puffers überschreitet das Limit; bitte prüfen Sie die Einstellung „max_buffer“ und starten Sie neu.",
    "La conexión falló después de tres reintentos — revisa el certificado y la zona horaria (UTC−3, São Paulo).",
    "支付回调超时后，系统会在五分钟内自动重试；若仍失败，请检查网关证书是否过期。",
    "キャッシュの有効期限は２４時間です。「再試行」ボタンを押す前に、ログを確認してください。",
    "결제 콜백이 실패하면 대기열에서 다시 시도합니다. 인증서 만료 여부를 확인하세요.",
    "Status board: ✅ healthy, ⚠️ degraded, 🔥 paging on-call — the 📊 dashboard refreshes every 30 s.",
    "- Step 1: run `kubectl get pods -n payments`\n- Step 2: describe the pod that says \"CrashLoopBackOff\"\n- Step 3: read its events",
    "Set the config to {\"timeout\": 30, \"retry\": {\"max\": 5, \"jitter\": true}} and reload; no restart is needed.",
    "A replica lags when its WAL apply rate falls below the primary's write rate: watch `pg_stat_replication.replay_lag`.",
    "Eviction starts at maxmemory × 0.9; with allkeys-lru the oldest session keys go first, which logs users out 😬.",
    "Quote the path: \"C:\\Program Files\\Ragtrace\\bin\\ragtrace.exe\" analyze --summary traces.jsonl",
    "Résumé of the incident: the naïve retry loop hammered the café's POS API — 1 200 calls in 3 s, all \"429 Too Many Requests\".",
    "订单对账每天凌晨两点运行（UTC+8）。差异超过 0.5% 时会发送告警 📣 给值班人员。",
    "Rotate the certificate before it expires: `openssl x509 -enddate -noout -in cert.pem` prints \"notAfter=…\".",
    "Backups run at 02:00; a restore takes ~40 min for 120 GB. Test one every quarter, or it is not a backup.",
    "Use a tab-separated export:\tid\tstatus\tlatency_ms\n\t42\tok\t118\n\t43\ttimeout\t30000",
    "The index has 12 shards × 2 replicas; a shard over 50 GB slows merges, so split it before it gets there.",
    "Ошибка «connection reset by peer» означает, что сервер закрыл соединение; проверьте keep-alive.",
    "Ne pas confondre « délai » et « latence » : le premier est une limite, la seconde une mesure. 🙂",
];

/// Titles and breadcrumb sections of the real-shaped documents.
const TOPICS: &[(&str, &str)] = &[
    ("payments-gateway", "Payments gateway runbook"),
    ("redis-eviction", "Redis eviction and memory"),
    ("k8s-pods", "Kubernetes pod troubleshooting"),
    ("certificates", "TLS certificate rotation"),
    ("backups", "Backup and restore"),
    ("search-shards", "Search index sharding"),
    ("zahlungen", "Zahlungsabwicklung – Handbuch"),
    ("paiements", "Paiements : guide d'exploitation"),
    ("zhifu-huidiao", "支付回调处理手册"),
    ("replication", "Database replication"),
];

const SECTIONS: &[&str] = &[
    "Overview",
    "Timeouts",
    "Retries",
    "Monitoring",
    "Limits",
    "Rollback",
    "FAQ",
    "Dépannage",
    "常见问题",
];

const QUESTIONS: &[&str] = &[
    "Why does the payment callback time out after 30 s?",
    "How do I rotate the gateway's TLS certificate without downtime?",
    "What does \"CrashLoopBackOff\" mean for the payments pod?",
    "Where are the gateway logs on Windows (C:\\ProgramData)?",
    "支付回调超时怎么办？",
    "Warum überschreitet der Puffer das Limit?",
    "Comment vérifier le délai du résolveur ?",
    "How long does a restore of 120 GB take?",
    "Which Redis keys are evicted first under allkeys-lru?",
    "How do I tell replication lag from a stuck replica? 🤔",
];

/// `chars` characters (not bytes) of passages, run together with spaces, line breaks
/// and paragraph breaks, cut at exactly `chars`.
fn chunk_text(rng: &mut Rng, chars: usize) -> String {
    let mut text = String::new();
    let mut count = 0;
    while count < chars {
        if count > 0 {
            let gap = match rng.below(6) {
                0 => "\n\n",
                1 => "\n",
                _ => " ",
            };
            text.push_str(gap);
            count += gap.len();
        }
        let passage = PASSAGES[rng.below(PASSAGES.len() as u64) as usize];
        text.push_str(passage);
        count += passage.chars().count();
    }
    text.chars().take(chars).collect()
}

fn hex(rng: &mut Rng, digits: usize) -> String {
    let mut out = String::with_capacity(digits);
    while out.len() < digits {
        out.push_str(&format!("{:016x}", rng.next()));
    }
    out.truncate(digits);
    out
}

/// One retrieved chunk of a real-shaped retrieval.
struct RealHit {
    /// `<stem>#<chunk>`: the instrumentor's `document.id` and the native evidence key.
    id: String,
    file_name: String,
    title: String,
    breadcrumb: String,
    chunk_index: u64,
    content: String,
    /// L2 distance: rises along the rank.
    distance: f64,
}

/// One retrieval of the real-shaped batch, before it is written either way.
struct RealRetrieval {
    case_id: String,
    query: String,
    trace_id: String,
    /// Outer RETRIEVER (the documents), inner RETRIEVER, the embedding span and the
    /// embedding's inner span: the nesting LlamaIndex's instrumentor records.
    span_ids: [String; 4],
    start_nanos: u64,
    embedding: Vec<f64>,
    hits: Vec<RealHit>,
}

/// Dimensions of the query embedding on the EMBEDDING span, as in the span fixtures.
const EMBEDDING_DIMENSIONS: usize = 128;

fn real_retrieval(rng: &mut Rng, index: usize) -> RealRetrieval {
    let query = QUESTIONS[rng.below(QUESTIONS.len() as u64) as usize].to_owned();
    let trace_id = hex(rng, 32);
    let span_ids = [hex(rng, 16), hex(rng, 16), hex(rng, 16), hex(rng, 16)];
    let start_nanos = 1_796_511_621_000_000_000 + index as u64 * 1_000_000_000 + rng.below(1 << 20);
    let mut embedding: Vec<f64> = (0..EMBEDDING_DIMENSIONS)
        .map(|_| if rng.chance(20) { rng.unit() } else { 0.0 })
        .collect();
    let norm = embedding.iter().map(|x| x * x).sum::<f64>().sqrt();
    if norm > 0.0 {
        embedding.iter_mut().for_each(|x| *x /= norm);
    }
    let count = 5 + rng.below(26) as usize;
    let mut distance = 0.2 + rng.unit() * 0.4;
    let hits = (0..count)
        .map(|_| {
            let (stem, title) = TOPICS[rng.below(TOPICS.len() as u64) as usize];
            let file_name = format!("{stem}-{}.md", rng.below(400));
            let chunk_index = rng.below(40);
            let section = SECTIONS[rng.below(SECTIONS.len() as u64) as usize];
            let chars = 200 + rng.below(1_801) as usize;
            // Strictly rising: a tie would make the rank order ambiguous.
            distance += 0.001 + rng.unit() * 0.06;
            RealHit {
                id: format!("{}#{chunk_index}", file_name.trim_end_matches(".md")),
                file_name,
                title: title.to_owned(),
                breadcrumb: format!("{title} > {section}"),
                chunk_index,
                content: chunk_text(rng, chars),
                distance,
            }
        })
        .collect();
    RealRetrieval {
        case_id: format!("real-{index:05}"),
        query,
        trace_id,
        span_ids,
        start_nanos,
        embedding,
        hits,
    }
}

fn real_retrievals(trace_count: usize, seed: u64) -> impl Iterator<Item = RealRetrieval> {
    let mut rng = Rng(seed ^ 0x7265_616C_7368_6170);
    (0..trace_count).map(move |i| real_retrieval(&mut rng, i + 1))
}

/// A native RerankTrace of the real-shaped batch, fields in the order users write them.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct NativeRealTrace<'a> {
    kind: &'static str,
    request_id: String,
    case_id: &'a str,
    query: &'a str,
    mode: &'static str,
    candidates: Vec<NativeRealCandidate<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct NativeRealCandidate<'a> {
    evidence_key: &'a str,
    doc_id: &'a str,
    chunk_index: u64,
    original_rank: usize,
    score: f64,
    title: &'a str,
    breadcrumb: &'a str,
    excerpt: &'a str,
}

impl RealRetrieval {
    /// The native trace of the same retrieval as the span fixtures pair them
    /// (`scores-native-l2.jsonl`): `requestId` is `<traceId>/<spanId>` of the span
    /// with the documents, `docId` the metadata's `file_name`, `score` the distance.
    fn native(&self) -> String {
        let trace = NativeRealTrace {
            kind: "RerankTrace",
            request_id: format!("{}/{}", self.trace_id, self.span_ids[0]),
            case_id: &self.case_id,
            query: &self.query,
            mode: "dense",
            candidates: self
                .hits
                .iter()
                .enumerate()
                .map(|(i, hit)| NativeRealCandidate {
                    evidence_key: &hit.id,
                    doc_id: &hit.file_name,
                    chunk_index: hit.chunk_index,
                    original_rank: i + 1,
                    score: hit.distance,
                    title: &hit.title,
                    breadcrumb: &hit.breadcrumb,
                    excerpt: &hit.content,
                })
                .collect(),
        };
        serde_json::to_string(&trace).unwrap_or_default()
    }

    /// The same retrieval as one OTLP JSON export line, shaped like LlamaIndex's
    /// OpenInference instrumentor writes it (`tests/fixtures/otel/llamaindex-cosine.jsonl`):
    /// the spans in the order they end (embedding's inner span, embedding, inner
    /// RETRIEVER without documents, outer RETRIEVER with them).
    /// `score` turns a hit's L2 distance into the score the store reports.
    fn otlp(&self, score: fn(f64) -> f64) -> String {
        let [outer, inner, embedding, embedding_inner] = &self.span_ids;
        let quoted = |text: &str| serde_json::to_string(text).unwrap_or_default();
        let metadata = kv(
            "metadata",
            AnyValue::String(format!("{{\"caseId\": {}}}", quoted(&self.case_id))),
        );
        let embedding_input = format!("{{\"query\": {}}}", quoted(&self.query));
        let nodes: Vec<String> = self
            .hits
            .iter()
            .map(|hit| {
                quoted(&format!(
                    "<NodeWithScore(node=TextNode(id_={}), score={})>",
                    hit.id,
                    json!(score(hit.distance))
                ))
            })
            .collect();
        let output = format!("[{}]", nodes.join(", "));
        let output_attributes = || {
            [
                kv("output.value", AnyValue::String(output.clone())),
                kv(
                    "output.mime_type",
                    AnyValue::String("application/json".into()),
                ),
            ]
        };
        let kind = |kind: &str| kv("openinference.span.kind", AnyValue::String(kind.into()));
        let json_input = |text: String| {
            [
                kv("input.value", AnyValue::String(text)),
                kv(
                    "input.mime_type",
                    AnyValue::String("application/json".into()),
                ),
            ]
        };
        let model = || kv("embedding.model_name", AnyValue::String("unknown".into()));
        let t0 = self.start_nanos;

        let mut embedding_inner_attributes = vec![metadata.clone(), model()];
        embedding_inner_attributes.extend(json_input(embedding_input.clone()));
        embedding_inner_attributes.push(kind("EMBEDDING"));

        let mut embedding_attributes = vec![metadata.clone(), model()];
        embedding_attributes.extend(json_input(embedding_input));
        embedding_attributes.push(kv(
            "embedding.embeddings.0.embedding.text",
            AnyValue::String(self.query.clone()),
        ));
        embedding_attributes.push(kv(
            "embedding.embeddings.0.embedding.vector",
            AnyValue::Array(ArrayValue {
                values: self
                    .embedding
                    .iter()
                    .map(|&x| AnyValue::Double(x))
                    .collect(),
            }),
        ));
        embedding_attributes.push(kind("EMBEDDING"));

        let mut inner_attributes = vec![metadata.clone()];
        inner_attributes.extend(json_input(format!(
            "{{\"query_bundle\": {{\"query_str\": {}, \"image_path\": null, \"custom_embedding_strs\": null, \"embedding\": null}}}}",
            quoted(&self.query)
        )));
        inner_attributes.extend(output_attributes());
        inner_attributes.push(kind("RETRIEVER"));

        let mut outer_attributes = vec![
            metadata,
            kv("input.value", AnyValue::String(self.query.clone())),
        ];
        for (i, hit) in self.hits.iter().enumerate() {
            let key = |field: &str| format!("retrieval.documents.{i}.document.{field}");
            outer_attributes.push(kv(&key("id"), AnyValue::String(hit.id.clone())));
            outer_attributes.push(kv(&key("content"), AnyValue::String(hit.content.clone())));
            outer_attributes.push(kv(&key("score"), AnyValue::Double(score(hit.distance))));
            outer_attributes.push(kv(
                &key("metadata"),
                AnyValue::String(format!(
                    "{{\"file_name\": {}, \"title\": {}, \"breadcrumb\": {}, \"chunk_index\": {}}}",
                    quoted(&hit.file_name),
                    quoted(&hit.title),
                    quoted(&hit.breadcrumb),
                    hit.chunk_index
                )),
            ));
        }
        outer_attributes.extend(output_attributes());
        outer_attributes.push(kind("RETRIEVER"));

        let span = |id: &String,
                    parent: Option<&String>,
                    name: &str,
                    from: u64,
                    to: u64,
                    attributes: Vec<KeyValue>| OtlpSpan {
            trace_id: self.trace_id.clone(),
            span_id: id.clone(),
            parent_span_id: parent.cloned(),
            name: name.to_owned(),
            kind: 1,
            start_time_unix_nano: (t0 + from).to_string(),
            end_time_unix_nano: (t0 + to).to_string(),
            attributes,
            status: OtlpStatus { code: 1 },
            flags: 256,
        };
        let spans = vec![
            span(
                embedding_inner,
                Some(embedding),
                "TrigramEmbedding._get_query_embedding",
                692_000,
                856_000,
                embedding_inner_attributes,
            ),
            span(
                embedding,
                Some(inner),
                "TrigramEmbedding.get_query_embedding",
                550_000,
                972_000,
                embedding_attributes,
            ),
            span(
                inner,
                Some(outer),
                "VectorIndexRetriever._retrieve",
                377_000,
                1_751_000,
                inner_attributes,
            ),
            span(
                outer,
                None,
                "VectorIndexRetriever.retrieve",
                0,
                2_007_000,
                outer_attributes,
            ),
        ];
        let resource = |key: &str, value: &str| kv(key, AnyValue::String(value.to_owned()));
        let line = OtlpLine {
            resource_spans: [OtlpResourceSpans {
                resource: OtlpResource {
                    attributes: vec![
                        resource("telemetry.sdk.language", "python"),
                        resource("telemetry.sdk.name", "opentelemetry"),
                        resource("telemetry.sdk.version", "1.45.2"),
                        resource("service.instance.id", "generate-batch"),
                        resource("service.name", "ragtrace-real-shaped"),
                    ],
                },
                scope_spans: [OtlpScopeSpans {
                    scope: OtlpScope {
                        name: "openinference.instrumentation.llama_index",
                        version: "4.6.1",
                    },
                    spans,
                }],
            }],
        };
        serde_json::to_string(&line).unwrap_or_default()
    }
}

fn kv(key: &str, value: AnyValue) -> KeyValue {
    KeyValue {
        key: key.to_owned(),
        value,
    }
}

// The OTLP/JSON encoding (field names in lowerCamelCase, 64-bit integers as strings),
// typed so the fields come out in the exporter's order.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct OtlpLine {
    resource_spans: [OtlpResourceSpans; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct OtlpResourceSpans {
    resource: OtlpResource,
    scope_spans: [OtlpScopeSpans; 1],
}

#[derive(Serialize)]
struct OtlpResource {
    attributes: Vec<KeyValue>,
}

#[derive(Serialize)]
struct OtlpScopeSpans {
    scope: OtlpScope,
    spans: Vec<OtlpSpan>,
}

#[derive(Serialize)]
struct OtlpScope {
    name: &'static str,
    version: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct OtlpSpan {
    trace_id: String,
    span_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    parent_span_id: Option<String>,
    name: String,
    kind: u8,
    start_time_unix_nano: String,
    end_time_unix_nano: String,
    attributes: Vec<KeyValue>,
    status: OtlpStatus,
    flags: u32,
}

#[derive(Serialize)]
struct OtlpStatus {
    code: u8,
}

#[derive(Serialize, Clone)]
struct KeyValue {
    key: String,
    value: AnyValue,
}

#[derive(Serialize, Clone)]
enum AnyValue {
    #[serde(rename = "stringValue")]
    String(String),
    #[serde(rename = "doubleValue")]
    Double(f64),
    #[serde(rename = "arrayValue")]
    Array(ArrayValue),
}

#[derive(Serialize, Clone)]
struct ArrayValue {
    values: Vec<AnyValue>,
}

/// Real-shaped traces as native RerankTrace JSON Lines (one trace per line, without
/// the line end): what a RAG stack that records each chunk's whole text writes.
/// Each trace has 5 to 30 candidates; each chunk 200 to 2,000 characters of prose,
/// code, paths and regular expressions (quotes, backslashes, newlines and tabs that
/// JSON escapes), several languages (accented Latin, CJK) and emoji; distances rise
/// along the rank. Made one trace at a time, like [`generate_batch_lines`].
pub fn generate_real_batch_lines(trace_count: usize, seed: u64) -> impl Iterator<Item = String> {
    real_retrievals(trace_count, seed).map(|retrieval| retrieval.native())
}

/// The traces of [`generate_real_batch_lines`] with the same arguments, as OTLP JSON
/// export lines (one `{"resourceSpans": [...]}` per line): each retrieval an
/// OpenInference RETRIEVER span with `retrieval.documents.<i>.document.*` attributes,
/// inside the resource, scope and span nesting of LlamaIndex's instrumentor.
pub fn generate_real_otlp_lines(trace_count: usize, seed: u64) -> impl Iterator<Item = String> {
    real_retrievals(trace_count, seed).map(|retrieval| retrieval.otlp(|distance| distance))
}

/// The OTLP lines of [`generate_real_otlp_lines`] with the same arguments, each
/// document's score the cosine similarity of its distance, as a cosine store reports
/// it (Qdrant, Milvus COSINE, LlamaIndex's SimpleVectorStore): `1 - d^2 / 2` for unit
/// vectors, clamped at -1 (contract section 10.1), so similarities fall along the
/// rank. Read them under `scoreKind` `cosineSimilarity`.
pub fn generate_real_otlp_cosine_lines(
    trace_count: usize,
    seed: u64,
) -> impl Iterator<Item = String> {
    real_retrievals(trace_count, seed)
        .map(|retrieval| retrieval.otlp(|distance| (1.0 - distance * distance / 2.0).max(-1.0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_parseable() {
        let a = generate_batch(5, 10, 7);
        assert_eq!(a, generate_batch(5, 10, 7));
        assert_ne!(a, generate_batch(5, 10, 8));
        let batch = crate::input::parse_document("gen", &a);
        assert!(batch.errors.is_empty());
        assert_eq!(batch.traces.len(), 5);
        assert_eq!(batch.candidate_count(), 50);
    }

    /// The lines are the batch's traces, one per line.
    #[test]
    fn lines_are_the_batch_traces() {
        let whole: serde_json::Value =
            serde_json::from_str(&generate_batch(6, 4, 3)).unwrap_or_default();
        let lines: Vec<serde_json::Value> = generate_batch_lines(6, 4, 3)
            .map(|line| serde_json::from_str(&line).unwrap_or_default())
            .collect();
        assert_eq!(lines.len(), 6);
        assert_eq!(whole["traces"], serde_json::Value::Array(lines));
    }

    /// The generated cases link to the generated traces and reach every level.
    #[test]
    fn generated_cases_fit_the_generated_batch() {
        let text = generate_cases(500, 8, 42);
        assert_eq!(text, generate_cases(500, 8, 42));
        let cases = match crate::golden::parse_cases("cases", &text) {
            Ok(cases) => cases,
            Err(errors) => panic!("{errors:?}"),
        };
        assert_eq!(cases.cases.len(), 101);
        assert!(cases.diagnostics.is_empty(), "{:?}", cases.diagnostics);
        let batch = crate::input::parse_document("gen", &generate_batch(500, 8, 42));
        let analysis =
            match crate::analysis::analyze(&batch, &crate::config::Settings::default(), false) {
                Ok(analysis) => analysis,
                Err(err) => panic!("{err}"),
            };
        let report = crate::golden::evaluate_analysis(&cases, &analysis);
        let levels = &report.summary.levels;
        assert!(
            levels.strong > 0 && levels.medium > 0 && levels.weak > 0 && levels.miss > 0,
            "{levels:?}"
        );
        let linked = report
            .cases
            .iter()
            .filter(|c| c.trace_name.is_some())
            .count();
        assert_eq!(linked, 100);
    }

    /// Same seed, same bytes, both ways; another seed, other bytes.
    #[test]
    fn real_shaped_lines_are_deterministic() {
        let native: Vec<String> = generate_real_batch_lines(20, 5).collect();
        let otlp: Vec<String> = generate_real_otlp_lines(20, 5).collect();
        assert_eq!(native, generate_real_batch_lines(20, 5).collect::<Vec<_>>());
        assert_eq!(otlp, generate_real_otlp_lines(20, 5).collect::<Vec<_>>());
        assert_ne!(native, generate_real_batch_lines(20, 6).collect::<Vec<_>>());
        assert_eq!((native.len(), otlp.len()), (20, 20));
    }

    /// Candidates per trace, chunk lengths, rising distances and the characters JSON
    /// must escape or encode as multi-byte UTF-8, over 300 traces; and ragtrace reads
    /// the native lines without a diagnostic.
    #[test]
    fn real_shaped_traces_have_the_sizes_and_characters_asked_for() {
        let lines: Vec<String> = generate_real_batch_lines(300, 11).collect();
        let (mut fewest, mut most) = (usize::MAX, 0);
        let (mut shortest, mut longest) = (usize::MAX, 0);
        let mut chunks = 0;
        // Chunks holding: a quote, a backslash, a newline, a tab, accented Latin,
        // CJK, an emoji.
        let mut holding = [0usize; 7];
        for line in &lines {
            let trace: Value = serde_json::from_str(line).unwrap_or_default();
            let candidates = trace["candidates"].as_array().cloned().unwrap_or_default();
            fewest = fewest.min(candidates.len());
            most = most.max(candidates.len());
            let scores: Vec<f64> = candidates
                .iter()
                .filter_map(|c| c["score"].as_f64())
                .collect();
            assert_eq!(scores.len(), candidates.len());
            assert!(scores.windows(2).all(|w| w[0] < w[1]), "{scores:?}");
            for candidate in &candidates {
                let text = candidate["excerpt"].as_str().unwrap_or_default();
                let length = text.chars().count();
                shortest = shortest.min(length);
                longest = longest.max(length);
                chunks += 1;
                let classes = [
                    text.contains('"'),
                    text.contains('\\'),
                    text.contains('\n'),
                    text.contains('\t'),
                    text.chars().any(|c| matches!(c, 'À'..='ɏ')),
                    text.chars()
                        .any(|c| matches!(c, '\u{3040}'..='\u{30FF}' | '\u{4E00}'..='\u{9FFF}')),
                    text.chars().any(|c| c >= '\u{1F300}'),
                ];
                for (count, present) in holding.iter_mut().zip(classes) {
                    *count += usize::from(present);
                }
            }
        }
        assert_eq!((fewest, most), (5, 30));
        assert!(shortest >= 200 && longest <= 2_000, "{shortest}..{longest}");
        assert!(shortest < 250 && longest > 1_950, "{shortest}..{longest}");
        // Every kind of character in most chunks, not in a few.
        for (class, count) in holding.iter().enumerate() {
            assert!(
                count * 2 > chunks,
                "class {class}: {count} of {chunks} chunks"
            );
        }
        let batch = crate::input::parse_document("real", &lines.join("\n"));
        assert!(batch.errors.is_empty(), "{:?}", batch.errors);
        assert_eq!(batch.traces.len(), 300);
        assert_eq!(batch.candidate_count(), chunks);
    }

    fn attribute<'a>(span: &'a Value, key: &str) -> Option<&'a Value> {
        span["attributes"]
            .as_array()?
            .iter()
            .find(|a| a["key"] == key)
            .map(|a| &a["value"])
    }

    /// The cosine lines are the same retrievals: read under `cosineSimilarity` they
    /// give the distances (and so the qualities and levels) the distance lines give
    /// under `l2`, and their scores fall along the rank as similarities do.
    #[test]
    fn cosine_otlp_lines_read_under_cosine_similarity_as_the_distances() {
        use crate::config::{ScoreKind, Settings};
        let analyse = |lines: Vec<String>, score_kind| {
            let batch = crate::input::parse_document("spans", &lines.join("\n"));
            assert!(batch.errors.is_empty(), "{:?}", batch.errors);
            let settings = Settings {
                score_kind: Some(score_kind),
                ..Settings::default()
            };
            match crate::analysis::analyze(&batch, &settings, false) {
                Ok(analysis) => analysis,
                Err(err) => panic!("{err}"),
            }
        };
        let cosine = analyse(
            generate_real_otlp_cosine_lines(60, 11).collect(),
            ScoreKind::CosineSimilarity,
        );
        let l2 = analyse(generate_real_otlp_lines(60, 11).collect(), ScoreKind::L2);
        assert_eq!(cosine.traces.len(), 60);
        assert!(cosine.warnings.is_empty(), "{:?}", cosine.warnings);
        for (c, d) in cosine.traces.iter().zip(&l2.traces) {
            assert_eq!(c.relevance_level, d.relevance_level);
            let (c_top, d_top) = (c.top_quality.unwrap_or(-1.0), d.top_quality.unwrap_or(-1.0));
            assert!((c_top - d_top).abs() < 1e-9, "{c_top} {d_top}");
            let scores: Vec<f64> = c
                .trace
                .candidates()
                .iter()
                .filter_map(|x| x.score)
                .collect();
            assert!(
                scores.windows(2).all(|pair| pair[0] >= pair[1]),
                "{scores:?}"
            );
        }
    }

    /// Each OTLP line is one JSON object with the instrumentor's nesting, and its
    /// outer RETRIEVER span holds the native trace's candidates, in rank order.
    #[test]
    fn real_shaped_otlp_lines_are_the_same_retrievals_as_spans() {
        let is_hex = |text: &str, digits: usize| {
            text.len() == digits && text.bytes().all(|b| b.is_ascii_hexdigit())
        };
        let native = generate_real_batch_lines(40, 3);
        for (line, native) in generate_real_otlp_lines(40, 3).zip(native) {
            assert!(!line.contains('\n'));
            let export: Value = match serde_json::from_str(&line) {
                Ok(value) => value,
                Err(err) => panic!("{err}: {line}"),
            };
            let trace: Value = serde_json::from_str(&native).unwrap_or_default();
            let resource = &export["resourceSpans"][0];
            assert_eq!(
                attribute(&resource["resource"], "service.name"),
                Some(&json!({"stringValue": "ragtrace-real-shaped"}))
            );
            let scope = &resource["scopeSpans"][0];
            assert_eq!(
                scope["scope"]["name"],
                "openinference.instrumentation.llama_index"
            );
            let spans = scope["spans"].as_array().cloned().unwrap_or_default();
            let kinds: Vec<&Value> = spans
                .iter()
                .filter_map(|s| attribute(s, "openinference.span.kind"))
                .map(|v| &v["stringValue"])
                .collect();
            assert_eq!(kinds, ["EMBEDDING", "EMBEDDING", "RETRIEVER", "RETRIEVER"]);
            // Each span's parent is the next one; the outer RETRIEVER is the root.
            for pair in spans.windows(2) {
                assert_eq!(pair[0]["parentSpanId"], pair[1]["spanId"]);
            }
            let outer = &spans[3];
            assert!(outer.get("parentSpanId").is_none());
            let trace_id = outer["traceId"].as_str().unwrap_or_default();
            let span_id = outer["spanId"].as_str().unwrap_or_default();
            assert!(
                is_hex(trace_id, 32) && is_hex(span_id, 16),
                "{trace_id} {span_id}"
            );
            assert!(spans.iter().all(|s| s["traceId"] == trace_id));
            assert_eq!(trace["requestId"], format!("{trace_id}/{span_id}"));
            // The inner RETRIEVER has no documents.
            assert!(attribute(&spans[2], "retrieval.documents.0.document.id").is_none());
            assert_eq!(
                attribute(outer, "input.value"),
                Some(&json!({ "stringValue": trace["query"] }))
            );
            let candidates = trace["candidates"].as_array().cloned().unwrap_or_default();
            for (i, candidate) in candidates.iter().enumerate() {
                let document = |field: &str| {
                    attribute(outer, &format!("retrieval.documents.{i}.document.{field}"))
                };
                assert_eq!(
                    document("id"),
                    Some(&json!({ "stringValue": candidate["evidenceKey"] }))
                );
                assert_eq!(
                    document("content"),
                    Some(&json!({ "stringValue": candidate["excerpt"] }))
                );
                assert_eq!(
                    document("score"),
                    Some(&json!({ "doubleValue": candidate["score"] }))
                );
                let metadata: Value = document("metadata")
                    .and_then(|v| v["stringValue"].as_str())
                    .and_then(|text| serde_json::from_str(text).ok())
                    .unwrap_or_default();
                assert_eq!(metadata["file_name"], candidate["docId"]);
            }
            let beyond = format!("retrieval.documents.{}.document.id", candidates.len());
            assert!(attribute(outer, &beyond).is_none());
            // Four per document and five more: 125 at 30 documents, within
            // OpenTelemetry's default limit of 128 attributes a span.
            let attributes = outer["attributes"].as_array().map_or(0, Vec::len);
            assert_eq!(attributes, 4 * candidates.len() + 5);
            assert!(outer.get("droppedAttributesCount").is_none());
        }
    }
}
