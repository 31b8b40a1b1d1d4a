//! The example course page's custom lesson (`static/examples/lesson.md`, loaded in the browser by
//! `<sprout-lesson src>`) is checked like the built-in ones: it parses, its steps print what their
//! `expect` blocks say, its solution passes and its wrong answers fail.

#[test]
fn the_example_course_lesson_verifies() {
    let markdown = include_str!("../../../../static/examples/lesson.md");
    let lesson = lessons::parse_lesson("lesson.md", markdown).unwrap();
    assert_eq!(lesson.id, "course-cheap-products");
    assert_eq!((lesson.steps.len(), lesson.exercises.len()), (2, 1));
    if let Err(failures) = lesson_runner::verify_lesson(&lesson) {
        panic!("{failures:#?}");
    }
    let right = lesson_runner::check_exercise(
        &lesson,
        &lesson.exercises[0],
        "db.products.countDocuments({price: {$gte: 60}})",
    );
    assert!(right.passed, "{right:?}");
}
