"""dragonforge: private, bilingual RAG benchmarks in the way of RAGEval/DRAGONBall."""

__version__ = "0.1.0"
