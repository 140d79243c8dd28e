"""Span vectors pooled from one pass over the answer, against encoding each span alone.

These use the real USE weights: the pooled path reads the encoder's internals, so the
checks that matter are the ones against the package's own ``encode``.
"""

from __future__ import annotations

import numpy as np
import pytest

from interviewer.grading.encoders import use_spans
from interviewer.grading.encoders.backends import CachingEmbedder, USEEmbedder
from interviewer.content.segment import evidence_spans

pytestmark = pytest.mark.integration

ANSWER = ("梯度累积把一个大batch拆成多个micro-batch，每个micro-batch做完前向反向后把梯度累加起来，"
          "先不更新参数。累积N个之后再用累积的梯度更新一次参数！"
          "Memory stays that of one micro-batch, and the all-reduce runs once per update.")


@pytest.fixture(scope="module")
def use() -> USEEmbedder:
    embedder = USEEmbedder(threads=1)
    embedder.load()
    return embedder


def _backend(use: USEEmbedder):
    return use._model._model


def test_the_installed_encoder_has_the_layout_the_pooling_reads(use) -> None:
    assert use_spans.supported(_backend(use))
    assert not use_spans.supported(object())


@pytest.mark.parametrize("text", [
    "ZeRO-3 partitions parameters, gradients and optimizer states",
    "张量并行把矩阵乘切到多张卡上",
    "x",
])
def test_a_text_without_inner_spans_pools_to_exactly_its_own_encoding(use, text) -> None:
    pooled = use_spans.pooled_vectors(_backend(use), [(text, [text])])[0]
    alone = use.embed([text])[0]
    assert pooled.shape == (2, 512)
    np.testing.assert_allclose(pooled[0], alone, atol=1e-5)  # the span is the whole text
    np.testing.assert_allclose(pooled[1], alone, atol=1e-5)


def test_sentences_without_clauses_are_exact_and_clauses_stay_close(use) -> None:
    text = "数据并行复制模型。张量并行切分矩阵乘，流水线并行切分层。"
    spans = evidence_spans(text)
    assert spans == ["数据并行复制模型", "张量并行切分矩阵乘，流水线并行切分层", "张量并行切分矩阵乘",
                     "流水线并行切分层"]
    pooled = use_spans.pooled_vectors(_backend(use), [(text, spans)])[0]
    alone = use.embed([*spans, text])
    cosines = (pooled * alone).sum(axis=1)
    assert cosines[0] == pytest.approx(1.0, abs=1e-5)  # one-clause sentence: same tokens
    assert cosines.min() > 0.9
    # the pooled clause is still nearest to its own text among the spans
    assert [int(np.argmax(alone @ v)) for v in pooled[:-1]] == [0, 1, 2, 3]


def test_spans_that_are_not_in_the_text_are_encoded_alone(use) -> None:
    pooled = use_spans.pooled_vectors(_backend(use), [(ANSWER, ["not in the text", "梯度累积"])])[0]
    np.testing.assert_allclose(pooled[0], use.embed(["not in the text"])[0], atol=1e-5)
    assert pooled[1] @ use.embed(["梯度累积"])[0] > 0.8


def test_many_answers_in_one_call_match_one_at_a_time(use) -> None:
    texts = [ANSWER, "只有一句。", "  ", ANSWER[::-1] * 8]  # the last one crosses the token budget
    items = [(t, evidence_spans(t)) for t in texts]
    together = use_spans.pooled_vectors(_backend(use), items)
    for item, vectors in zip(items, together):
        one = use_spans.pooled_vectors(_backend(use), [item])[0]
        assert vectors.shape == (len(item[1]) + 1, 512)
        np.testing.assert_allclose(vectors, one, atol=1e-5)
        np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_the_caching_embedder_pools_once_per_answer_and_falls_back_without_pooling(use) -> None:
    calls = []

    class Counting:
        model_id = use.model_id

        def embed(self, texts):
            return use.embed(texts)

        def embed_answers(self, items):
            calls.append(len(items))
            return use.embed_answers(items)

    cached = CachingEmbedder(Counting())
    spans = evidence_spans(ANSWER)
    first = cached.embed_answers([(ANSWER, spans)])[0]
    again = cached.embed_answers([(ANSWER, spans), (ANSWER, spans)])
    assert calls == [1] and all(np.array_equal(first, v) for v in again)

    alone = CachingEmbedder(USEEmbedder(threads=1, pool_spans=False)).embed_answers([(ANSWER, spans)])[0]
    np.testing.assert_allclose(alone, use.embed([*spans, ANSWER]), atol=1e-5)
    # pooled and alone agree on the whole answer's direction and closely on the spans
    assert float(first[-1] @ alone[-1]) > 0.95
    assert float(np.mean((first * alone).sum(axis=1))) > 0.95


@pytest.mark.parametrize("slots", [4, 2048])  # 4: almost every token collides with another
def test_the_projection_cache_changes_no_vector(use, slots) -> None:
    cache = use_spans.ProjectionCache(slots)
    items = [(ANSWER, evidence_spans(ANSWER)), ("张量并行把矩阵乘切到多张卡上。", ["张量并行把矩阵乘切到多张卡上"])]
    plain = use_spans.pooled_vectors(_backend(use), items)
    for _ in range(2):  # cold, then warm
        cached = use_spans.pooled_vectors(_backend(use), items, cache)
        for a, b in zip(plain, cached):
            np.testing.assert_allclose(a, b, atol=1e-5)
    # the slots in use are exactly those of the answers' tokens (slot = id mod size), each
    # holds one of those tokens, and its row is what the encoder computes for that token
    sp = _backend(use).sp
    ids = {i for text, spans in items
           for seq in use_spans._Layout(lambda piece: sp.encode(piece, out_type=int, add_bos=False,
                                                                add_eos=False), text, spans).sequences
           for i in seq}
    used = np.flatnonzero(cache.tags >= 0)
    tags = cache.tags[used]
    assert set(used.tolist()) == {i % slots for i in ids}
    assert set(tags.tolist()) <= ids and np.all(tags % slots == used)
    emb = np.empty((len(tags), use_spans._EMB_DIM), dtype=np.float32)
    use_spans._dequantise(_backend(use), tags, emb)
    np.testing.assert_allclose(cache.rows[used], use_spans._project(_backend(use), emb),
                               rtol=1e-5, atol=1e-5)


def test_one_answer_is_encoded_on_one_thread_and_a_batch_on_the_configured_ones(monkeypatch) -> None:
    """A grade is one answer. Its encoding is small enough that a second BLAS thread buys
    little on an idle machine and costs most of the grade when another process (the
    interface drawing) holds a core: the two threads wait for each other. One thread for
    one answer, whatever is configured, also keeps a grade the same bits in every process."""
    from threadpoolctl import threadpool_info

    seen: list[int] = []
    real = use_spans.pooled_vectors

    def recording(backend, items, projections):
        seen.append(max(p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"))
        return real(backend, items, projections)

    monkeypatch.setattr(use_spans, "pooled_vectors", recording)
    embedder = USEEmbedder(threads=2)
    embedder.embed_answers([(ANSWER, evidence_spans(ANSWER))])
    embedder.embed_answers([(ANSWER, evidence_spans(ANSWER)), ("DP then TP.", ["DP then TP."])])
    assert seen == [1, 2]


def test_one_answer_encodes_to_the_same_bits_whatever_the_threads_configured() -> None:
    one, two = USEEmbedder(threads=1), USEEmbedder(threads=2)
    items = [(ANSWER * 4, evidence_spans(ANSWER * 4))]
    assert np.array_equal(one.embed_answers(items)[0], two.embed_answers(items)[0])
