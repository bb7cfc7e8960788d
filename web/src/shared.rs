//! A large value shared by memos, views and the lazily loaded computations.

use std::ops::Deref;
use std::sync::Arc;

/// A large value shared by memos and views without copying.
///
/// Two values are equal only when they are the same allocation: comparing whole
/// analyses would cost as much as computing them, and a fresh computation is
/// always worth propagating.
#[derive(Debug)]
pub struct Shared<T>(pub Arc<T>);

impl<T> Shared<T> {
    pub fn new(value: T) -> Self {
        Shared(Arc::new(value))
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(Arc::clone(&self.0))
    }
}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}
