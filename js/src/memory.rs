//! Growing wasm memory ahead of a parse, by an estimate from the input's length.
//!
//! The wasm allocator grows linear memory only as far as each request needs, 64 KiB
//! at a time, and the engine pays for growths (V8 swaps the memory's `ArrayBuffer`
//! and often runs a full garbage collection). The 37.5 MB benchmark batch in ASCII-only
//! text, whose copy into wasm takes exactly its length, grew memory about a thousand
//! times while parsing in a fresh Node process, with 178 full collections, and took
//! more than twice as long as with memory grown beforehand. Allocating the expected
//! size, and freeing it at once, grows memory in a few large steps; the freed blocks
//! stay with the allocator, which carves the parse's allocations out of them. Memory
//! already free (a warm process, or the tail wasm-bindgen leaves after copying
//! non-ASCII text at three bytes per character) is reused first.

/// Heap the parse and the analysis use per byte of input text, beyond the text itself:
/// about 1.75 on the benchmark batch (5,000 traces of 20 candidates), rounded up. A
/// shortfall only means the rest grows as before; the excess stays reserved (wasm
/// memory never shrinks), untouched.
#[cfg(target_arch = "wasm32")]
const HEAP_BYTES_PER_INPUT_BYTE: usize = 2;

/// The reservation's unit: blocks this large fill the memory already free (holes a
/// previous call left, the tail the text's copy left) before any growth, so memory
/// grows by the shortfall only, in a few steps, and by at most one block too much.
#[cfg(target_arch = "wasm32")]
const RESERVE_BLOCK_BYTES: usize = 4 << 20;

/// Makes room for parsing and analysing `input_len` bytes of JSON text.
#[cfg(target_arch = "wasm32")]
pub(crate) fn reserve_for_parse(input_len: usize) {
    let mut left = input_len.saturating_mul(HEAP_BYTES_PER_INPUT_BYTE);
    let mut blocks: Vec<Vec<u8>> = Vec::with_capacity(left.div_ceil(RESERVE_BLOCK_BYTES));
    while left > 0 {
        let size = left.min(RESERVE_BLOCK_BYTES);
        let mut block = Vec::new();
        // A failed reservation costs nothing: the parse then grows memory as it goes,
        // and fails only where it would have failed anyway.
        if block.try_reserve_exact(size).is_err() {
            break;
        }
        blocks.push(block);
        left -= size;
    }
    // Without a use, the compiler may drop allocations that are freed unused.
    std::hint::black_box(&mut blocks);
}

/// Natively the system allocator maps large blocks on demand: nothing to do.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn reserve_for_parse(_input_len: usize) {}
