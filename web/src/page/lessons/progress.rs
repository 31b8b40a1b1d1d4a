//! What the learner has done: per lesson, the steps run (and which matched what the lesson
//! expects) and the exercises solved; the lesson and page they are on; the page's language.
//! Saved as JSON in IndexedDB ([`super::progress_store`]) after every change.

use std::collections::{BTreeMap, BTreeSet};

use lessons::Lesson;
use serde::{Deserialize, Serialize};

use crate::page::i18n::Lang;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    #[serde(default)]
    pub lang: Lang,
    /// The open lesson's id; `None` in the free playground.
    #[serde(default)]
    pub current: Option<String>,
    /// The page of the open lesson ([`super::library::Page::index`]).
    #[serde(default)]
    pub page: usize,
    #[serde(default)]
    pub lessons: BTreeMap<String, LessonProgress>,
    /// The console's last commands and their output, shown again after a reload.
    #[serde(default)]
    pub transcript: Vec<super::transcript::SavedEntry>,
}

/// One lesson's progress; step and exercise numbers from 0.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LessonProgress {
    /// Steps run at least once.
    #[serde(default)]
    pub steps_run: BTreeSet<usize>,
    /// Steps whose last run matched the expected output and plan.
    #[serde(default)]
    pub steps_matched: BTreeSet<usize>,
    #[serde(default)]
    pub exercises_solved: BTreeSet<usize>,
}

impl Progress {
    pub fn lesson(&self, id: &str) -> LessonProgress {
        self.lessons.get(id).cloned().unwrap_or_default()
    }

    /// Records a run of step `step`: `matched` when its output was what the lesson expects.
    pub fn step_ran(&mut self, lesson: &str, step: usize, matched: bool) {
        let p = self.lessons.entry(lesson.to_string()).or_default();
        p.steps_run.insert(step);
        if matched {
            p.steps_matched.insert(step);
        } else {
            p.steps_matched.remove(&step);
        }
    }

    pub fn exercise_solved(&mut self, lesson: &str, exercise: usize) {
        self.lessons
            .entry(lesson.to_string())
            .or_default()
            .exercises_solved
            .insert(exercise);
    }

    /// A lesson is complete when every step has run with the expected result and every
    /// exercise is solved.
    pub fn is_complete(&self, lesson: &Lesson) -> bool {
        let p = self.lesson(&lesson.id);
        (0..lesson.steps.len()).all(|i| p.steps_matched.contains(&i))
            && (0..lesson.exercises.len()).all(|i| p.exercises_solved.contains(&i))
    }

    /// Done and total items (steps and exercises) of a lesson, for the navigator.
    pub fn tally(&self, lesson: &Lesson) -> (usize, usize) {
        let p = self.lesson(&lesson.id);
        let steps = p
            .steps_matched
            .iter()
            .filter(|&&i| i < lesson.steps.len())
            .count();
        let exercises = p
            .exercises_solved
            .iter()
            .filter(|&&i| i < lesson.exercises.len())
            .count();
        (
            steps + exercises,
            lesson.steps.len() + lesson.exercises.len(),
        )
    }

    /// Reads saved progress; anything unreadable starts afresh rather than failing the page.
    pub fn from_json(text: &str) -> Progress {
        serde_json::from_str(text).unwrap_or_default()
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::lessons::library::built_in;

    #[test]
    fn a_lesson_is_complete_when_all_steps_matched_and_exercises_solved() {
        let lessons = built_in();
        let b5 = lessons.iter().find(|l| l.id == "b5-optimizing").unwrap();
        let mut p = Progress::default();
        for i in 0..b5.steps.len() {
            p.step_ran(&b5.id, i, true);
        }
        assert!(!p.is_complete(b5));
        for i in 0..b5.exercises.len() {
            p.exercise_solved(&b5.id, i);
        }
        assert!(p.is_complete(b5));
        // A later run that no longer matches takes the mark away.
        p.step_ran(&b5.id, 0, false);
        assert!(!p.is_complete(b5));
        let (done, total) = p.tally(b5);
        assert_eq!(
            (done + 1, total),
            (total, b5.steps.len() + b5.exercises.len())
        );
    }

    #[test]
    fn progress_round_trips_and_bad_json_starts_afresh() {
        let mut p = Progress {
            lang: Lang::Zh,
            current: Some("b4-indexes".into()),
            page: 3,
            ..Progress::default()
        };
        p.step_ran("b4-indexes", 1, true);
        p.exercise_solved("b4-indexes", 0);
        assert_eq!(Progress::from_json(&p.to_json()), p);
        assert_eq!(Progress::from_json("{not json"), Progress::default());
        assert_eq!(Progress::from_json("{}"), Progress::default());
    }
}
