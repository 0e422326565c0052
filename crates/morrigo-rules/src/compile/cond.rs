//! Compiling a rule expression written at a path of the ruleset to a
//! [`crate::Cond`], an error in it located inside its YAML scalar.

use super::Compiler;
use crate::schema::Text;
use crate::vocab::RuleEnv;
use crate::Cond;
use morrigo_diag::{Diagnostic, Location};
use morrigo_dsl::Type;

impl Compiler<'_> {
    /// Compile the expression at a path of keys of the merged ruleset; a
    /// column inside it is mapped back through the YAML scalar's quoting,
    /// escapes and folding to where it is written.
    pub(super) fn cond_at(
        &mut self,
        text: &Text,
        path: &[&str],
        env: &RuleEnv<'_>,
        want: Type,
    ) -> Cond {
        self.cond_at_checked(text, path, env, want, false)
    }

    /// As `cond_at`; with `count`, the value must provably never be negative.
    pub(super) fn cond_at_checked(
        &mut self,
        text: &Text,
        path: &[&str],
        env: &RuleEnv<'_>,
        want: Type,
        count: bool,
    ) -> Cond {
        let key = path.last().copied().unwrap_or("");
        let node = self.loaded.node(path).cloned();
        let loaded = self.loaded;
        self.compile_cond(text, key, env, want, count, |i| {
            let node = node.as_ref()?;
            let src = loaded.source_of(node.pos)?;
            Some(src.location(node.value_offset(&src.text, i)))
        })
    }

    fn compile_cond(
        &mut self,
        text: &Text,
        key: &str,
        env: &RuleEnv<'_>,
        want: Type,
        count: bool,
        locate: impl Fn(usize) -> Option<Location>,
    ) -> Cond {
        let at = locate(0);
        let checked =
            morrigo_dsl::compile_bounded(&text.0, env, want).and_then(|(expr, (lo, _))| {
                if count && lo < 0 {
                    let whole = morrigo_dsl::Span {
                        start: 0,
                        end: text.0.len(),
                    };
                    return Err(morrigo_dsl::DslError::at(
                        whole,
                        format!("this can be {lo}, but it counts pieces"),
                    )
                    .with_expected("a number that is never negative"));
                }
                Ok(expr)
            });
        match checked {
            Ok(expr) => Cond {
                expr,
                text: text.0.clone(),
                at,
            },
            Err(e) => {
                let mut d = Diagnostic::new(format!("in `{key}`: {}", e.message));
                if let Some(x) = e.expected {
                    d = d.expected(x);
                }
                if let Some(n) = e.note {
                    d = d.note(n);
                }
                self.errors.push(d.at_opt(locate(e.span.start)));
                Cond {
                    expr: morrigo_dsl::Expr::Const(0),
                    text: text.0.clone(),
                    at,
                }
            }
        }
    }
}
