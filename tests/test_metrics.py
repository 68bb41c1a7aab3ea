"""Behaviour of the metric functions (method.md §3); every expected value is worked out by hand."""

from __future__ import annotations

import math
import random

import pytest
from dragonforge import metrics as m

A = "Revenue rose 5%."
B = "Costs were flat."


# --- sentences, metadata, words -------------------------------------------------------------


def test_english_sentences_are_split_by_pysbd_keeping_abbreviations_and_decimals():
    assert m.split_sentences("Revenue rose 5%. Profit fell to $3.2 million! Why?", "en") == [
        "Revenue rose 5%.", "Profit fell to $3.2 million!", "Why?"]
    assert m.split_sentences("Mr. Smith joined Acme Inc. in 2020. He left in 2021.", "en") == [
        "Mr. Smith joined Acme Inc. in 2020.", "He left in 2021."]


def test_chinese_sentences_end_after_full_stop_exclamation_question_and_at_newlines():
    assert m.split_sentences("公司成立于2006年。总部位于苏州！是否上市？\n 是的", "zh") == [
        "公司成立于2006年。", "总部位于苏州！", "是否上市？", "是的"]


def test_blank_text_has_no_sentences():
    assert m.split_sentences("", "en") == []
    assert m.split_sentences("  \n ", "en") == []
    assert m.split_sentences("\n\n", "zh") == []


@pytest.mark.parametrize("text", [
    "The company's revenue rose 3.5% to $4.20 million.",
    "'quoted' St?",
    '"x" Inc a "x" b!',
    "Items were 1) cash 2) debt",
    "Revenue (2.13% of sales) rose.",
    "It rose by 10, then fell",
    "Acme Inc.",
])
def test_english_single_sentence_shortcut_agrees_with_pysbd(text):
    expected = [s.strip() for s in m._segmenter().segment(text) if s.strip()]  # pysbd itself
    assert m.split_sentences(text, "en") == expected


def test_metadata_prefix_is_removed_with_the_whitespace_after_it():
    assert m.strip_metadata("(Doc 3, Finance) The company invested.") == "The company invested."
    assert m.strip_metadata("（文档3，金融）公司成立于2006年。") == "公司成立于2006年。"


def test_text_without_a_leading_or_a_closed_bracket_keeps_everything():
    assert m.strip_metadata("Revenue (2.1%) rose.") == "Revenue (2.1%) rose."
    assert m.strip_metadata("(no closing bracket") == "(no closing bracket"
    assert m.strip_metadata("（mixed) brackets") == "（mixed) brackets"  # （ closes only with ）
    assert m.strip_metadata("") == ""


def test_words_are_characters_in_chinese_and_whitespace_tokens_in_english():
    assert m.word_count("公司 成立", "zh") == 5
    assert m.word_count("The company  invested\n heavily", "en") == 4
    assert m.word_count("", "en") == 0


# --- RAGEval recall, EIR, precision ---------------------------------------------------------


def test_recall_counts_a_reference_found_across_two_chunks():
    refs = ["Revenue rose 5%. Profit fell.", B]
    chunks = ["Sales data. Revenue rose 5%. Other", "Then Profit fell. More"]
    assert m.recall(refs, chunks, "en") == 0.5  # the first is recalled, Costs were flat. is not


def test_recall_needs_every_sentence_of_a_reference():
    assert m.recall(["Revenue rose 5%. Profit fell."], ["Revenue rose 5%. Profit rose."], "en") == 0.0


def test_recall_in_chinese():
    refs = ["公司成立于2006年。总部位于苏州市。", "公司于2018年上市。"]
    assert m.recall(refs, ["总部位于苏州市。其他", "介绍：公司成立于2006年。"], "zh") == 0.5


def test_recall_without_references_is_none_and_without_retrieval_zero():
    assert m.recall([], ["anything"], "en") is None
    assert m.recall([A], [], "en") == 0.0


def test_eir_divides_matched_reference_words_by_retrieved_words_without_metadata():
    chunks = ["(Doc 1) Revenue rose 5%. Sales grew", "Costs were flat. Debt fell."]
    # joined: "Revenue rose 5%. Sales grew Costs were flat. Debt fell." = 10 words, 3 + 3 matched
    assert m.eir([A, B], chunks, "en") == pytest.approx(0.6)


def test_eir_counts_characters_in_chinese():
    # 公司成立于2006年。 is 11 characters of the 17 left once the prefix is gone
    assert m.eir(["公司成立于2006年。"], ["（来源：文档1）公司成立于2006年。总部在苏州。"], "zh") == pytest.approx(11 / 17)


def test_eir_matches_in_the_space_joined_text_even_across_a_chunk_boundary():
    assert m.eir([A], ["Revenue rose", "5%."], "en") == 1.0
    assert m.recall([A], ["Revenue rose", "5%."], "en") == 0.0


def test_eir_empty_cases():
    assert m.eir([], ["Revenue rose 5%."], "en") is None
    assert m.eir([A], [], "en") == 0.0
    assert m.eir([A], ["(metadata only)"], "en") == 0.0


def test_precision_is_the_share_of_chunks_holding_a_reference_sentence_outside_metadata():
    chunks = ["(Costs were flat.) unrelated", "Revenue rose 5%. More", "nothing here"]
    assert m.precision([A, B], chunks, "en") == pytest.approx(1 / 3)
    assert m.precision([], chunks, "en") is None
    assert m.precision([A], [], "en") == 0.0


# The reference implementation's own scripts give the values below (bench/compat_check.py runs them).


def test_precision_compat_counts_top_five_chunks_lying_wholly_inside_the_references():
    chunks = ["Revenue rose 5%.",                  # inside the reference: 1
              "Revenue rose 5%. Costs were flat.",  # both sentences inside: 1
              "Revenue rose 5%. Sales fell.",       # a sentence outside: 0
              "(Doc 1) Costs were flat.",           # the metadata prefix is part of the sentence: 0
              "",                                   # no sentence, so none outside: 1
              "Costs were flat."]                   # sixth: not looked at
    assert m.precision_compat([A + " " + B], chunks, "en") == pytest.approx(3 / 5)
    assert m.precision_compat([], ["Anything.", ""], "en") == 0.5
    assert m.precision_compat([A], [], "en") == 0.0
    zh = ["总部位于苏州市。", "（元数据）总部位于苏州市。", "总部位于苏州市。\n公司成立于2006年。"]
    assert m.precision_compat(["公司成立于2006年。总部位于苏州市。"], zh, "zh") == pytest.approx(2 / 3)


def test_precision_compat_word_shortcut_never_rejects_a_chunk_pysbd_would_accept():
    """The shortcut says a chunk holds text no reference has only when some run of letters or
    digits is missing from every reference; pysbd's sentences must then have been missing too."""
    rng = random.Random(5)
    pieces = ["Mr. Smith paid $3.2 million.", "See (Annex 2) for details.", "1. First item", "2) Second item",
              "-1. dashed", "a. letter item", "He said \"Stop.\" Then left.", "It's done!", "Why? Because.",
              "U.S. firms grew.", "e.g.the rule", "v1.2.3 release", "i. roman one", "• bullet", "end...Next",
              "x_y under_score", "Rate: 5 % p.a.", "Total\n\nnext line", "Dr.Who arrived", "ÄÖ über naïve café."]
    checked = accepted = 0
    for _ in range(600):
        chunk = " ".join(rng.choice(pieces) for _ in range(rng.randint(1, 5)))
        sentences = m._sentences(chunk, "en")
        # references: some of the chunk's own sentences, sometimes with other text around them
        refs = [" ".join(s for s in sentences if rng.random() < 0.8)]
        if rng.random() < 0.5:
            refs.append(rng.choice(pieces))
        full = all(any(s in r for r in refs) for s in sentences)  # pysbd's answer
        if full:
            accepted += 1
            assert m._words_inside(chunk, "\x00".join(refs)), (chunk, refs)
        checked += 1
    assert accepted > 100 and checked == 600


def test_eir_keeps_the_space_after_a_metadata_prefix_which_chinese_counts_as_a_character():
    # " 甲乙。" is 4 characters, 3 of them the reference's
    assert m.eir(["甲乙。"], ["（元数据） 甲乙。"], "zh") == pytest.approx(3 / 4)


def test_recall_counts_a_reference_without_sentences_as_found_even_when_nothing_is_retrieved():
    assert m.recall(["", A], [], "en") == 0.5


# --- IR classics ----------------------------------------------------------------------------


def test_a_chunk_is_relevant_with_one_sentence_of_a_reference():
    assert m.is_relevant("Then Profit fell. More", ["Revenue rose 5%. Profit fell."], "en")
    assert not m.is_relevant("(Profit fell.) Then nothing", ["Profit fell."], "en")
    assert not m.is_relevant("anything", [], "en")
    assert m.is_relevant("（元数据）总部位于苏州市。", ["公司成立于2006年。总部位于苏州市。"], "zh")


RANKED = ["noise one", "x Revenue rose 5%. y", "noise two", "Costs were flat. z", "noise three",
          "again Revenue rose 5%."]


def test_recall_at_k_is_recall_on_the_top_k():
    assert m.recall_at_k([A, B], RANKED, "en", k=2) == 0.5
    assert m.recall_at_k([A, B], RANKED, "en", k=5) == 1.0
    assert m.recall_at_k([], RANKED, "en") is None


def test_mrr_is_the_reciprocal_rank_of_the_first_relevant_chunk():
    assert m.mrr([A, B], RANKED, "en") == 0.5
    assert m.mrr([A, B], RANKED, "en", k=1) == 0.0
    assert m.mrr([A, B], ["noise"], "en") == 0.0
    assert m.mrr([A, B], [], "en") == 0.0
    assert m.mrr([], RANKED, "en") is None


def test_ndcg_at_5_by_hand():
    # rel@5 = [0,1,0,1,0]: DCG = 1/log2(3) + 1/log2(5). Three relevant chunks were retrieved (the
    # third at rank 6), so the ideal list has three on top: IDCG = 1 + 1/log2(3) + 1/log2(4)
    expected = (1 / math.log2(3) + 1 / math.log2(5)) / (1 + 1 / math.log2(3) + 1 / math.log2(4))
    assert expected == pytest.approx(0.498189, abs=1e-6)
    assert m.ndcg_at_k([A, B], RANKED, "en", k=5) == pytest.approx(expected)


def test_ndcg_is_one_for_relevant_chunks_on_top_and_zero_for_none():
    assert m.ndcg_at_k([A, B], [A, B, "noise"], "en") == pytest.approx(1.0)
    assert m.ndcg_at_k([A, B], ["noise"], "en") == 0.0
    assert m.ndcg_at_k([A, B], [], "en") == 0.0
    assert m.ndcg_at_k([], [A], "en") is None


def test_ndcg_ideal_list_has_at_most_k_relevant_chunks():
    # 3 references, k = 2: IDCG = 1 + 1/log2(3); one relevant chunk at rank 1 gives 1 / IDCG
    refs = [A, B, "Debt fell."]
    assert m.ndcg_at_k(refs, [A, "noise"], "en", k=2) == pytest.approx(1 / (1 + 1 / math.log2(3)))


def test_ndcg_is_capped_at_one_when_more_chunks_than_references_are_relevant():
    assert m.ndcg_at_k([A], ["one Revenue rose 5%.", "two Revenue rose 5%."], "en") == 1.0


def test_k_below_one_is_an_error():
    with pytest.raises(ValueError):
        m.ndcg_at_k([A], [A], "en", k=0)


# --- Ragas-style ----------------------------------------------------------------------------


@pytest.mark.parametrize(("relevance", "expected"), [
    ([0, 1, 0, 1], 0.5),  # method.md's worked example: (1/2 + 2/4) / 2
    ([1, 0, 0, 1], 0.75),  # (1/1 + 2/4) / 2
    ([True, True], 1.0),
    ([0, 0, 0], 0.0),
    ([], 0.0),
])
def test_context_precision_worked_examples(relevance, expected):
    assert m.context_precision_at_k(relevance, 5) == pytest.approx(expected)


def test_context_precision_only_looks_at_the_top_k():
    assert m.context_precision_at_k([0, 0, 1], 2) == 0.0
    assert m.context_precision_at_k([1, 0, 0, 0, 0, 1], 5) == 1.0


CONTEXT = ["Acme Inc invested $54.95 million in research and development.", "The board met often."]


def test_context_recall_counts_sentences_whose_numbers_names_and_words_the_context_holds():
    answer = "Acme Inc invested $54.95 million in research. The board met 11 times."
    assert m.context_recall(answer, CONTEXT, "en") == 0.5  # 11 is nowhere in the context


def test_context_recall_rejects_a_wrong_number_or_a_wrong_name():
    assert m.context_recall("Acme Inc invested $54.90 million in research.", CONTEXT, "en") == 0.0
    assert m.context_recall("Acme invested $54.95 million, said Beta Corp.", CONTEXT, "en") == 0.0


def test_context_recall_needs_sixty_percent_of_the_content_words():
    answer = "The company invested heavily in research."  # company, invested, heavily, research
    assert m.context_recall(answer, ["The company invested in research."], "en") == 1.0  # 3 of 4
    assert m.context_recall(answer, ["The company grew."], "en") == 0.0  # 1 of 4


def test_context_recall_reads_thousands_separators_and_leading_zeros_as_the_same_number():
    assert m.context_recall("拟派发现金红利9,605.55万元。", ["公司拟派发现金红利9605.55万元。"], "zh") == 1.0
    assert m.context_recall("It was paid on 2021-03-05.", ["It was paid on 2021-3-5."], "en") == 1.0


def test_context_recall_in_chinese_checks_numbers_and_names():
    answer = "安华饮品股份有限公司的第一大股东为汇泰资本管理有限公司，持股42.23%。"
    context = ["（安华饮品股份有限公司年报）公司第一大股东为汇泰资本管理有限公司，持股比例为42.23%。"]
    assert m.context_recall(answer, context, "zh") == 1.0
    assert m.context_recall(answer.replace("42.23", "42.32"), context, "zh") == 0.0
    assert m.context_recall(answer.replace("汇泰", "汇丰"), context, "zh") == 0.0
    assert m.context_recall(answer, ["公司第一大股东为汇泰资本管理有限公司，持股比例为42.23%。"], "zh") == 0.0


def test_context_recall_sees_a_name_through_a_glued_function_character():
    assert m.context_recall("被告人温林于2022年9月10日作案。", ["被告人温林，2022年9月10日在苏州市作案。"], "zh") == 1.0
    assert m.context_recall("被告人温林于2022年9月10日作案。", ["被告人温琳，2022年9月10日在苏州市作案。"], "zh") == 0.0


def test_context_recall_of_an_empty_answer_or_retrieval_is_zero():
    assert m.context_recall("", CONTEXT, "en") == 0.0
    assert m.context_recall("Acme Inc invested $54.95 million.", [], "en") == 0.0


# --- generation -----------------------------------------------------------------------------


def test_rouge_l_english_is_lcs_f1_over_lower_cased_words_without_punctuation():
    # LCS "the cat on the mat" = 5 of 6 tokens each way
    assert m.rouge_l("the cat sat on the mat", "the cat lay on the mat", "en") == pytest.approx(5 / 6)
    assert m.rouge_l("The cat, sat on the mat!", "the cat lay on the mat", "en") == pytest.approx(5 / 6)


def test_rouge_l_weighs_precision_and_recall_equally():
    # LCS 3: P = 3/3, R = 3/6, F = 2 * 1 * 0.5 / 1.5
    assert m.rouge_l("a b c", "a x b y c z", "en") == pytest.approx(2 / 3)


def test_rouge_l_chinese_uses_jieba_words():
    # 公司/营业/收入/增长/了/百分之十 vs 公司/营业/收入/下降/了/百分之五: LCS 4 of 6
    assert m.rouge_l("公司营业收入增长了百分之十。", "公司营业收入下降了百分之五。", "zh") == pytest.approx(2 / 3)


def test_rouge_l_of_empty_or_punctuation_only_text_is_zero():
    assert m.rouge_l("", "the cat", "en") == 0.0
    assert m.rouge_l("the cat", "", "en") == 0.0
    assert m.rouge_l("...", "the cat", "en") == 0.0
    assert m.rouge_l("。", "你好", "zh") == 0.0
    assert m.rouge_l("dog", "cat", "en") == 0.0


def _lcs_by_table(a: list[str], b: list[str]) -> int:
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def test_bit_parallel_lcs_agrees_with_the_dynamic_programming_table():
    rng = random.Random(7)
    for _ in range(300):
        a = [rng.choice("abcd") for _ in range(rng.randint(0, 25))]
        b = [rng.choice("abcd") for _ in range(rng.randint(0, 25))]
        assert m._lcs_length(a, b) == _lcs_by_table(a, b)


def test_rouge_l_compat_reproduces_the_reference_packages():
    # The `rouge` package counts distinct words (5 here) and their union LCS (4): 0.8, not 5/6.
    assert m.rouge_l_compat("the cat sat on the mat", "the cat lay on the mat", "en") == pytest.approx(0.8)
    assert m.rouge_l_compat("公司营业收入增长了百分之十", "公司营业收入下降了百分之五", "zh") == pytest.approx(2 / 3)


def _packages_rouge_l(hyp: str, ref: str, language: str) -> float:
    """ROUGE-L F from the packages themselves, as the reference implementation calls them."""
    import rouge
    import rouge_chinese

    if language == "zh":
        hyp, ref = " ".join(m._jieba_tokens(hyp)), " ".join(m._jieba_tokens(ref))
        scorer = rouge_chinese.Rouge()
    else:
        scorer = rouge.Rouge(metrics=["rouge-l"])
    if not hyp.strip() or not ref.strip():
        return 0.0
    try:
        return scorer.get_scores(hyp, ref)[0]["rouge-l"]["f"]
    except (ValueError, RecursionError):
        return 0.0


def test_rouge_l_compat_port_equals_the_packages_exactly():
    rng = random.Random(11)
    words = ["the", "cat", "sat", "on", "mat", "The", "cat,", "Revenue", "rose", "5%", "3.2", "million"]
    marks = [".", " ", "  ", "\n", "!", "?", "...", "......", "。", "！", "？", "”", "’", "……", "x.y"]
    zh = ["公司", "营业收入", "增长", "了", "百分之十", "下降", "。", "！", "？", "”", "，", "2019年", " ", "……"]
    pairs = [(" ".join(rng.choice(words + marks) for _ in range(rng.randint(0, 40))),
              " ".join(rng.choice(words + marks) for _ in range(rng.randint(0, 40))), "en") for _ in range(400)]
    pairs += [("".join(rng.choice(zh) for _ in range(rng.randint(0, 30))),
               "".join(rng.choice(zh) for _ in range(rng.randint(0, 30))), "zh") for _ in range(400)]
    # past the package's recursion: a long sentence without full stops goes to the package itself
    pairs.append((" ".join(rng.choice(words[:5]) for _ in range(700)), " ".join(rng.choice(words[:5]) for _ in range(300)), "en"))
    for hyp, ref, language in pairs:
        assert m.rouge_l_compat(hyp, ref, language) == _packages_rouge_l(hyp, ref, language), (hyp, ref)


def test_chinese_words_cut_block_by_block_are_jieba_cut_exactly():
    import jieba

    rng = random.Random(3)
    alpha = list("公司营业收入增长了百分之十。！？ \n\r\t-_.+#&%abcXY09，“”（）")
    texts = ["".join(rng.choice(alpha) for _ in range(rng.randint(0, 40))) for _ in range(500)]
    texts.append("公司成立于2006年。总部位于苏州市！\n 董事长张伟（男，1970年生）表示：“营收增长12.5%。”")
    for text in texts:
        assert m._jieba_tokens(text) == tuple(jieba.cut(text)), text


def test_rouge_l_compat_scores_empty_and_degenerate_text_zero_without_raising():
    assert m.rouge_l_compat("", "the cat", "en") == 0.0
    assert m.rouge_l_compat("...", "the cat", "en") == 0.0
    assert m.rouge_l_compat("", "你好", "zh") == 0.0
    assert m.rouge_l_compat("。。", "你好", "zh") == 0.0


def test_keypoint_scores_are_label_shares():
    scores = m.keypoint_scores(["Relevant", "Wrong", "Irrelevant", "Relevant"])
    assert scores == {"completeness": 0.5, "hallucination": 0.25, "irrelevance": 0.25}


def test_keypoint_scores_without_labels_are_none_and_unknown_labels_an_error():
    assert m.keypoint_scores([]) == {"completeness": None, "hallucination": None, "irrelevance": None}
    with pytest.raises(ValueError):
        m.keypoint_scores(["relevant"])


# --- system ---------------------------------------------------------------------------------


def test_percentile_interpolates_linearly_between_ranks():
    values = [40, 10, 30, 20]
    assert m.percentile(values, 50) == 25.0
    assert m.percentile(values, 95) == pytest.approx(38.5)  # rank 2.85: 30 + 0.85 * 10
    assert m.percentile(values, 0) == 10.0
    assert m.percentile(values, 100) == 40.0
    assert m.percentile([7], 95) == 7.0
    assert m.percentile([], 50) is None
