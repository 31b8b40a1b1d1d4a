//! The sidebar's replica set panel (issue #17): when the console is connected to a replica set
//! (after `rs.initiate`), its name and members, each with its state (PRIMARY, SECONDARY,
//! ARBITER, or stopped), how far it lags behind the primary, and which member served the last
//! command. The worker reads it from `rs.status()` after each command (`worker/sidebar.rs`).

use leptos::prelude::*;

use crate::page::AppState;
use crate::page::i18n::{Lang, tr};
use crate::protocol::{MemberStateView, Topology, TopologyMember};

#[component]
pub fn TopologyPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    move || {
        state
            .topology
            .get()
            .map(|topology| panel(topology, state.lang.get()))
    }
}

fn panel(topology: Topology, lang: Lang) -> impl IntoView {
    let last = topology.last_served.clone();
    let members = topology
        .members
        .into_iter()
        .map(|m| {
            let served = last.as_deref() == Some(m.host.as_str());
            member_item(m, served, lang)
        })
        .collect_view();
    view! {
        <section class="topology" data-testid="topology" data-set=topology.set.clone()>
            <h3>
                {tr(lang, "Replica set")} " "
                <code class="set-name">{topology.set.clone()}</code>
            </h3>
            <ul class="members">{members}</ul>
        </section>
    }
}

fn member_item(member: TopologyMember, served: bool, lang: Lang) -> impl IntoView {
    let state_class = format!("member-state state-{}", state_key(member.state));
    let label = match member.state {
        MemberStateView::Stopped | MemberStateView::Other => tr(lang, member.state.label()),
        _ => member.state.label(),
    };
    let lag = member
        .lag_ms
        .filter(|_| member.state != MemberStateView::Stopped)
        .map(|ms| {
            view! { <span class="member-lag">{format!("{} {}", tr(lang, "lag"), lag_text(ms))}</span> }
        });
    view! {
        <li
            class="member"
            data-testid="topology-member"
            data-host=member.host.clone()
            data-state=state_key(member.state)
            data-served=served.to_string()
        >
            <span class="member-host">{member.host.clone()}</span>
            <span class="member-facts">
                <span class=state_class>{label}</span>
                {lag}
                {served.then(|| view! {
                    <span class="member-served" title=tr(lang, "served the last command")>
                        {format!("← {}", tr(lang, "last command"))}
                    </span>
                })}
            </span>
        </li>
    }
}

/// The state's name in the page's markup (`data-state`, the badge's class).
fn state_key(state: MemberStateView) -> &'static str {
    match state {
        MemberStateView::Primary => "primary",
        MemberStateView::Secondary => "secondary",
        MemberStateView::Arbiter => "arbiter",
        MemberStateView::Stopped => "stopped",
        MemberStateView::Other => "other",
    }
}

/// A lag as the panel writes it: milliseconds under a second, else seconds with one decimal.
fn lag_text(ms: i64) -> String {
    if ms < 1000 {
        format!("{ms} ms")
    } else {
        format!("{:.1} s", ms as f64 / 1000.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lags_read_in_milliseconds_then_seconds() {
        assert_eq!(lag_text(0), "0 ms");
        assert_eq!(lag_text(999), "999 ms");
        assert_eq!(lag_text(1500), "1.5 s");
        assert_eq!(lag_text(62_000), "62.0 s");
    }

    #[test]
    fn every_state_has_a_key_and_its_words_translate() {
        for state in [
            MemberStateView::Primary,
            MemberStateView::Secondary,
            MemberStateView::Arbiter,
            MemberStateView::Stopped,
            MemberStateView::Other,
        ] {
            assert!(!state_key(state).is_empty());
        }
        assert_eq!(tr(Lang::Zh, MemberStateView::Stopped.label()), "已停止");
        assert_eq!(tr(Lang::Zh, "last command"), "上一条命令");
    }
}
