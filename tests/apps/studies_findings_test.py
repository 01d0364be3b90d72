#!/usr/bin/env python3
"""The studies' findings machinery (validation/reports/studies/common.py, make_reports.py)
without running netwarp: verdict words, agreement with the paper, the findings section, the
exit status decided by the CI finding alone, and every study module's data (its CI finding is
one of its findings, names are unique)."""
import importlib
import os
import sys
import tempfile
import types
import unittest

REPORTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "validation",
                       "reports")
sys.path.insert(0, REPORTS)
import make_reports  # noqa: E402
from studies import STUDIES, common  # noqa: E402


def finding(name, holds, paper=None):
    return common.Finding(name, f"{name} is checked", lambda r: (holds(r), f"x = {r.x}"),
                          paper=paper)


def fake_study(findings, ci_name):
    """A study module whose run() measures x = 3 without running anything."""
    return types.SimpleNamespace(
        NAME="fake", TITLE="Fake study", FINDINGS=findings, CI_FINDING=ci_name,
        CI_WHY="it is the one that matters.",
        run=lambda ctx: common.Study("## Setting\n", [], common.results(x=3)))


class VerdictTest(unittest.TestCase):
    def test_words_follow_the_predicate(self):
        verdicts = common.decide([finding("big", lambda r: r.x > 2),
                                  finding("small", lambda r: r.x < 2)], common.results(x=3))
        self.assertEqual([v.word() for v in verdicts], ["holds", "does not hold"])
        self.assertEqual(verdicts[0].measured, "x = 3")

    def test_not_checked_only_when_the_predicate_says_so(self):
        f = common.Finding("ns-3", "needs ns-3", lambda r: (None, "netwarp-ns3 not built"))
        (v,) = common.decide([f], common.results())
        self.assertEqual(v.word(), "not checked")
        self.assertEqual(v.paper_text(), "")

    def test_paper_agreement_is_separate_from_holding(self):
        says = common.Paper("x is above 2")
        denies = common.Paper("x is below 2", agrees_if_holds=False)
        verdicts = common.decide([finding("a", lambda r: r.x > 2, says),
                                  finding("b", lambda r: r.x < 2, says),
                                  finding("c", lambda r: r.x > 2, denies),
                                  finding("d", lambda r: r.x > 2)], common.results(x=3))
        texts = [v.paper_text() for v in verdicts]
        self.assertEqual(texts[0], "agrees with the paper (the paper: x is above 2)")
        self.assertEqual(texts[1], "differs from the paper (the paper says x is above 2)")
        self.assertEqual(texts[2], "differs from the paper (the paper says x is below 2)")
        self.assertEqual(texts[3], "")

    def test_findings_section_names_the_ci_finding_and_each_verdict(self):
        verdicts = common.decide([finding("big", lambda r: r.x > 2),
                                  finding("small", lambda r: r.x < 2)], common.results(x=3))
        text = common.findings_markdown(verdicts, "big", "because.")
        self.assertIn("asserts one finding, **big**: because.", text)
        self.assertIn("1. **big** (asserted by CI): **holds**.", text)
        self.assertIn("2. **small**: **does not hold**.", text)
        self.assertIn("   - Measured: x = 3.", text)
        self.assertNotIn("Confirmed", text)


class RunStudyTest(unittest.TestCase):
    def run_fake(self, study):
        with tempfile.TemporaryDirectory() as out:
            failed = make_reports.run_study(study, "/bin/true", out, smoke=True)
            with open(os.path.join(out, "fake", "README.md")) as f:
                return failed, f.read()

    def test_only_the_ci_finding_decides(self):
        failed, readme = self.run_fake(fake_study(
            [finding("ci", lambda r: r.x > 2), finding("other", lambda r: r.x < 2)], "ci"))
        self.assertEqual(failed, [])
        self.assertIn("**other**: **does not hold**", readme)

    def test_a_ci_finding_that_does_not_hold_fails(self):
        failed, _ = self.run_fake(fake_study(
            [finding("ci", lambda r: r.x < 2), finding("other", lambda r: r.x > 2)], "ci"))
        self.assertEqual(failed, ["fake: ci: x = 3"])

    def test_a_ci_finding_that_is_not_a_finding_is_an_error(self):
        with self.assertRaises(common.StudyFailed):
            self.run_fake(fake_study([finding("ci", lambda r: True)], "missing"))


class StudyModulesTest(unittest.TestCase):
    def test_each_study_declares_findings_and_one_of_them_for_ci(self):
        for name in STUDIES:
            with self.subTest(study=name):
                m = importlib.import_module(f"studies.{name.replace('-', '_')}")
                self.assertEqual(m.NAME, name)
                names = [f.name for f in m.FINDINGS]
                self.assertEqual(len(names), len(set(names)))
                self.assertIn(m.CI_FINDING, names)
                self.assertTrue(m.CI_WHY)
                for f in m.FINDINGS:
                    self.assertTrue(callable(f.decide) and f.checks)


if __name__ == "__main__":
    unittest.main()
