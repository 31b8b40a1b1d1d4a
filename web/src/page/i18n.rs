//! The page's two languages: English and simplified Chinese. UI strings are written in English in
//! the components and looked up here with [`tr`]; lesson prose brings its own Chinese (the lesson
//! files' `zh` blocks).

use serde::{Deserialize, Serialize};

/// The language the page is shown in (saved with the lesson progress).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    #[default]
    En,
    Zh,
}

impl Lang {
    /// The value of the page's `lang` attribute.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh-CN",
        }
    }
}

/// English UI strings and their Chinese versions.
const ZH: &[(&str, &str)] = &[
    (
        "MongoDB playground in your browser",
        "在浏览器里运行的 MongoDB 练习场",
    ),
    ("Lessons", "课程"),
    ("Loading the lessons…", "正在加载课程…"),
    ("The lessons could not be loaded:", "课程无法加载："),
    ("Try again", "重试"),
    (
        "The console now works on the lesson's data:",
        "控制台现在使用本课的数据：",
    ),
    (
        "The console is back on your own data (kept in this browser).",
        "控制台回到了你自己的数据（保存在此浏览器中）。",
    ),
    ("All lessons", "全部课程"),
    ("Free playground", "自由练习"),
    (
        "Book A: 50 Tips and Tricks for MongoDB Developers",
        "A 书：《50 Tips and Tricks for MongoDB Developers》",
    ),
    (
        "Book B: MongoDB Data Modeling",
        "B 书：《MongoDB Data Modeling》",
    ),
    ("Introduction", "简介"),
    ("Step", "步骤"),
    ("Exercise", "练习"),
    ("Run this step", "运行这一步"),
    ("starting the engine…", "正在启动引擎…"),
    ("keys examined", "个键已检查"),
    ("docs examined", "个文档已检查"),
    ("returned", "个已返回"),
    ("then in the pipeline: ", "之后在管道中："),
    ("rejected plan(s)", "个被否决的计划"),
    ("Previous", "上一步"),
    ("Next", "下一步"),
    ("Matches the expected output", "与预期输出一致"),
    (
        "Differs from the expected output:",
        "与预期输出不同，预期是：",
    ),
    ("Not what the lesson expects", "与课程预期不符"),
    ("What to look at in the plan", "执行计划里要看的"),
    ("expected", "预期"),
    ("got", "实际"),
    ("Show a hint", "显示提示"),
    ("Hint", "提示"),
    ("Your answer", "你的答案"),
    ("Check", "检查"),
    ("Checking…", "检查中…"),
    ("Show solution", "显示答案"),
    ("Reset data", "重置数据"),
    ("Passed", "通过"),
    ("Not yet", "还没通过"),
    ("Solved", "已解决"),
    ("completed", "已完成"),
    ("steps", "步"),
    ("exercises", "练习"),
    ("Loading the lesson's data…", "正在载入课程数据…"),
    (
        "The lesson's data is loaded into a fresh database.",
        "课程数据已载入一个全新的数据库。",
    ),
    (
        "Your answer runs in a fresh copy of the lesson's data.",
        "你的答案会在一份全新的课程数据上运行。",
    ),
    ("Language", "语言"),
    (
        "The plan is what the lesson describes",
        "执行计划与课程所述一致",
    ),
    ("Databases", "数据库"),
    ("current", "当前"),
    ("Replica set", "副本集"),
    ("stopped", "已停止"),
    ("lag", "延迟"),
    ("served the last command", "处理了上一条命令"),
    ("last command", "上一条命令"),
    ("Sharded cluster", "分片集群"),
    ("Shards", "分片"),
    ("Chunks per shard", "各分片的数据块"),
    ("No sharded collections yet.", "还没有分片集合。"),
    ("chunk", "个数据块"),
    ("chunks", "个数据块"),
    ("Last query", "上一条查询"),
    ("targeted", "定向"),
    ("scatter-gather", "分散-收集"),
    ("got the last query", "收到了上一条查询"),
    ("last query", "上一条查询"),
    (
        "No collections yet. Insert a document to create one.",
        "还没有集合。插入一个文档就会创建集合。",
    ),
    ("Light theme", "浅色主题"),
    ("Dark theme", "深色主题"),
    ("Run", "运行"),
    ("Stop", "停止"),
    ("Lesson", "本课"),
    ("Console", "控制台"),
    ("Data", "数据"),
    ("Columns", "栏目"),
    (
        "Type a mongo shell command below and press",
        "在下方输入 mongo shell 命令，然后按",
    ),
    (
        "(or Enter when the statement is complete).",
        "（语句完整时也可以直接按 Enter）。",
    ),
    ("Try:", "试试："),
    ("then", "然后"),
    (
        "Everything runs in this page (WebAssembly); your data stays in this browser.",
        "一切都在此页面中运行（WebAssembly）；你的数据留在这个浏览器里。",
    ),
    (
        "Esc, then Tab, leaves the editor.",
        "按 Esc 再按 Tab 可离开编辑器。",
    ),
    ("Command", "命令"),
    ("Your answer gave", "你的答案给出"),
    ("Should not be there", "不应出现的"),
    ("Missing from your result", "你的结果中缺少的"),
    ("The plan facts that differ", "不同的执行计划事实"),
    ("fact", "事实"),
    ("Output", "输出"),
    ("docs", "个文档"),
    ("After", "经过"),
    ("Stages", "逐阶段"),
    ("View", "视图"),
    ("Text", "文本"),
    ("Tree", "树"),
    ("Table", "表格"),
    ("Plan", "计划"),
    ("winning plan", "获胜计划"),
    ("rejected plan", "被否决的计划"),
    ("stages", "阶段"),
    ("index", "索引"),
    ("bounds", "范围"),
    ("works", "工作量"),
    ("ms", "毫秒"),
    ("collection scan", "集合扫描"),
    ("in-memory sort", "内存排序"),
    (
        "The winning plan beside the rejected ones",
        "获胜计划与被否决计划的对比",
    ),
    (
        "Show serverParameters and command",
        "显示 serverParameters 和 command",
    ),
    (
        "Switch between the light and the dark theme",
        "在浅色与深色主题间切换",
    ),
    ("Stop the running command", "停止正在运行的命令"),
    ("Data in and out", "数据导入导出"),
    ("Export", "导出"),
    ("database", "数据库"),
    ("as", "格式"),
    ("mongodump archive", "mongodump 归档"),
    ("JSON lines (mongoexport)", "JSON 行（mongoexport）"),
    ("JSON array", "JSON 数组"),
    (
        "Import a mongoexport JSON file or a mongodump archive (or drop it on the page)",
        "导入 mongoexport JSON 文件或 mongodump 归档（也可以拖放到页面上）",
    ),
    ("Import file…", "导入文件…"),
    ("Paste…", "粘贴…"),
    ("into collection", "导入到集合"),
    (
        "JSON documents, one per line or an array",
        "JSON 文档，每行一个或一个数组",
    ),
    ("Import", "导入"),
    (
        "Drop a file anywhere on the page to import it.",
        "把文件拖放到页面任意位置即可导入。",
    ),
    // Share links (share/mod.rs).
    (
        "explain('allPlansExecution') adds the rejected plans' counters",
        "explain('allPlansExecution') 会给出被否决计划的计数",
    ),
    ("Share", "分享"),
    ("Close", "关闭"),
    (
        "A link with your data and commands (copied):",
        "包含你的数据和命令的链接（已复制）：",
    ),
    (
        "A link with your commands (copied; the data is too large for a link):",
        "包含你的命令的链接（已复制；数据太大，无法放进链接）：",
    ),
    ("Opened a shared link:", "已打开分享链接："),
    (
        "no data (it was too large for a link)",
        "没有数据（数据太大，未放进链接）",
    ),
    ("no data", "没有数据"),
    ("No lesson is open.", "没有打开的课程。"),
    (
        "command(s), in the editor, ready to run.",
        "条命令，已放入编辑器，可以运行。",
    ),
];

/// `en` in the page's language (the English text itself when there is no translation).
pub fn tr(lang: Lang, en: &'static str) -> &'static str {
    match lang {
        Lang::En => en,
        Lang::Zh => ZH.iter().find(|(k, _)| *k == en).map_or(en, |(_, zh)| zh),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_translate_and_unknown_ones_stay_english() {
        assert_eq!(tr(Lang::Zh, "Check"), "检查");
        assert_eq!(tr(Lang::En, "Check"), "Check");
        assert_eq!(tr(Lang::Zh, "no such string"), "no such string");
    }

    #[test]
    fn every_string_is_listed_once() {
        for (i, (k, _)) in ZH.iter().enumerate() {
            assert!(!ZH[i + 1..].iter().any(|(k2, _)| k2 == k), "{k} twice");
        }
    }

    #[test]
    fn the_language_is_saved_as_a_short_name() {
        assert_eq!(serde_json::to_string(&Lang::Zh).unwrap(), r#""zh""#);
    }
}
