//! The shell's promise job queue: Boa's FIFO of promise reactions, with limits.
//!
//! `function f() { Promise.resolve().then(f) } f()` queues a job that queues the next one
//! forever; with Boa's default executor the shell never returns. Here the jobs an input queues
//! run after it (as a REPL drains its microtasks), at most [`MAX_JOBS_PER_INPUT`] of them, with at
//! most [`MAX_QUEUED_JOBS`] waiting at once; past either, the queue is emptied and the input
//! ends with a `RangeError` that says which limit was passed. The shell has no timers, so
//! timeout and interval jobs cannot occur; async jobs (a dynamic `import()`, refused by the
//! module loader) are polled to completion when they complete without waiting.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;
use std::task::{Context as TaskContext, Poll, Waker};

use boa_engine::job::{GenericJob, Job, JobExecutor, NativeAsyncJob, PromiseJob};
use boa_engine::{Context, JsNativeError, JsResult};

/// Promise jobs one input may run (including those its jobs queue in turn).
pub const MAX_JOBS_PER_INPUT: usize = 100_000;
/// Promise jobs that may wait in the queue at once.
pub const MAX_QUEUED_JOBS: usize = 100_000;

#[derive(Default)]
pub(crate) struct BoundedJobs {
    promise_jobs: RefCell<VecDeque<PromiseJob>>,
    generic_jobs: RefCell<VecDeque<GenericJob>>,
    async_jobs: RefCell<VecDeque<NativeAsyncJob>>,
    /// Set when a job was refused because the queue was full.
    overflowed: Cell<bool>,
}

impl BoundedJobs {
    fn clear(&self) {
        self.promise_jobs.borrow_mut().clear();
        self.generic_jobs.borrow_mut().clear();
        self.async_jobs.borrow_mut().clear();
    }

    fn queued(&self) -> usize {
        self.promise_jobs.borrow().len() + self.generic_jobs.borrow().len()
    }

    fn next(&self) -> Option<NextJob> {
        if let Some(job) = self.async_jobs.borrow_mut().pop_front() {
            return Some(NextJob::Async(job));
        }
        if let Some(job) = self.promise_jobs.borrow_mut().pop_front() {
            return Some(NextJob::Promise(job));
        }
        self.generic_jobs
            .borrow_mut()
            .pop_front()
            .map(NextJob::Generic)
    }

    fn fail(&self, message: String) -> JsResult<()> {
        self.clear();
        Err(JsNativeError::range().with_message(message).into())
    }
}

enum NextJob {
    Promise(PromiseJob),
    Generic(GenericJob),
    Async(NativeAsyncJob),
}

impl JobExecutor for BoundedJobs {
    fn enqueue_job(self: Rc<Self>, job: Job, _context: &mut Context) {
        if self.queued() >= MAX_QUEUED_JOBS {
            self.overflowed.set(true);
            return;
        }
        match job {
            Job::PromiseJob(job) => self.promise_jobs.borrow_mut().push_back(job),
            Job::GenericJob(job) => self.generic_jobs.borrow_mut().push_back(job),
            Job::AsyncJob(job) => self.async_jobs.borrow_mut().push_back(job),
            // No timers in the shell; finalization callbacks are not run.
            _ => {}
        }
    }

    fn run_jobs(self: Rc<Self>, context: &mut Context) -> JsResult<()> {
        let mut ran = 0usize;
        loop {
            if self.overflowed.replace(false) {
                return self.fail(format!(
                    "more than {MAX_QUEUED_JOBS} promise jobs were waiting at once; the queue \
                     was emptied (is a loop creating promises that never settle?)"
                ));
            }
            let Some(job) = self.next() else {
                return Ok(());
            };
            ran += 1;
            if ran > MAX_JOBS_PER_INPUT {
                return self.fail(format!(
                    "more than {MAX_JOBS_PER_INPUT} promise jobs ran for one input; the rest \
                     were dropped (does a promise callback keep queueing another?)"
                ));
            }
            let result = match job {
                NextJob::Promise(job) => job.call(context).map(drop),
                NextJob::Generic(job) => job.call(context).map(drop),
                NextJob::Async(job) => poll_ready(job, context),
            };
            if let Err(e) = result {
                self.clear();
                return Err(e);
            }
        }
    }
}

/// Runs an async job that completes without waiting (nothing in the shell waits on I/O).
fn poll_ready(job: NativeAsyncJob, context: &mut Context) -> JsResult<()> {
    let cell = RefCell::new(context);
    let mut future = job.call(&cell);
    let mut task = TaskContext::from_waker(Waker::noop());
    for _ in 0..1000 {
        if let Poll::Ready(result) = std::pin::Pin::new(&mut future).poll(&mut task) {
            return result.map(drop);
        }
    }
    Ok(())
}
