//! `stonelab go selfplay` and `stonelab go fit-model`: records that replay and resume, a fitted
//! model that parses and beats a uniform guess on held-out games, the built-in model, and input
//! errors (one line, exit 2).

mod common;

use stonelab_go::movemodel::MoveModel;

#[test]
fn selfplay_records_resume_and_fit() {
    let dir = common::temp_dir("go_model");
    let out = dir.join("games.jsonl");
    let out_s = out.to_str().unwrap();
    let base = [
        "go",
        "selfplay",
        "--size",
        "7",
        "--playouts",
        "300",
        "--random-moves",
        "4",
        "--model",
        "none",
        "--out",
        out_s,
    ];
    let text = common::stonelab_ok(&[&base[..], &["--games", "3", "--jobs", "2"]].concat());
    assert!(text.starts_with("3 games (3 new)"), "{text}");
    let first = std::fs::read_to_string(&out).unwrap();
    let games: Vec<serde_json::Value> = first
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 3);
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g["game"], i);
        assert_eq!(g["size"], "7x7");
        let moves = g["moves"].as_array().unwrap();
        assert!(moves.len() > 4, "{g}");
        // Every game replays under the rules.
        let list: Vec<String> = moves
            .iter()
            .enumerate()
            .map(|(k, m)| {
                format!(
                    "{} {}",
                    if k % 2 == 0 { "B" } else { "W" },
                    m.as_str().unwrap()
                )
            })
            .collect();
        common::stonelab_ok(&["go", "replay", "--size", "7x7", "--moves", &list.join(" ")]);
    }
    // Resuming keeps the games and adds one; one job plays the same games as two.
    let text = common::stonelab_ok(&[&base[..], &["--games", "4", "--jobs", "1"]].concat());
    assert!(text.starts_with("4 games (1 new)"), "{text}");
    let second = std::fs::read_to_string(&out).unwrap();
    assert!(second.starts_with(&first));
    let again = dir.join("again.jsonl");
    let mut other = base.to_vec();
    let last = other.len() - 1;
    other[last] = again.to_str().unwrap();
    common::stonelab_ok(&[&other[..], &["--games", "4", "--jobs", "1"]].concat());
    assert_eq!(std::fs::read_to_string(&again).unwrap(), second);
    // Other settings are refused.
    common::stonelab_err(
        &[
            "go",
            "selfplay",
            "--size",
            "7",
            "--playouts",
            "301",
            "--out",
            out_s,
        ],
        "other settings",
    );
    // So is a model without the hand-set priors (the record's games, without a model, had them).
    let mut builtin = base.to_vec();
    builtin[9] = "builtin";
    common::stonelab_err(
        &[&builtin[..], &["--games", "5", "--hand-priors", "false"]].concat(),
        "hand priors true",
    );
    // Fit on the four games, one held out.
    let model = dir.join("model.txt");
    let json = common::stonelab_json(&[
        "go",
        "fit-model",
        out_s,
        "--out",
        model.to_str().unwrap(),
        "--rounds",
        "5",
        "--holdout",
        "4",
        "--format",
        "json",
    ]);
    assert_eq!(json["games"], 4);
    let train = &json["train"];
    assert!(
        train["log_likelihood"].as_f64().unwrap()
            > train["uniform_log_likelihood"].as_f64().unwrap()
    );
    let text = std::fs::read_to_string(&model).unwrap();
    let parsed = MoveModel::parse(&text).unwrap();
    assert!(parsed.provenance.iter().any(|l| l.contains("games.jsonl")));
    // The engine plays with it.
    let gtp = common::stonelab_with_input(
        &[
            "go",
            "gtp",
            "--playouts",
            "200",
            "--model",
            model.to_str().unwrap(),
        ],
        "boardsize 7\ngenmove b\nquit\n",
    );
    assert!(
        String::from_utf8_lossy(&gtp.stdout).starts_with("= \n\n= "),
        "{gtp:?}"
    );
}

#[test]
fn fits_on_match_records() {
    // A `stonelab go match` record: its header, then games whose moves alternate from Black. With
    // the first two moves of each skipped, the positions are the other stone moves (passes are
    // not positions).
    let dir = common::temp_dir("go_model_match");
    let record = dir.join("match.jsonl");
    let header = r#"{"record":"stonelab go match","version":1,"black":"a","white":"b","size":7,"komi":7.0,"move_ms":null}"#;
    let game = |n: u32, seq: &[&str]| {
        let seq: Vec<String> = seq.iter().map(|m| format!("\"{m}\"")).collect();
        format!(
            r#"{{"number":{n},"black":"black","white":"white","moves":{},"end":"resignation","winner":"B","result":"B+Resign","area_score":null,"engine_scores":[],"referee":null,"disagreement":false,"note":null,"sequence":[{}]}}"#,
            seq.len(),
            seq.join(",")
        )
    };
    let text = [
        header.to_owned(),
        game(1, &["B D4", "W C3", "B E3", "W C5", "B pass", "W E5"]),
        game(2, &["B C4", "W E4", "B D5", "W D3", "B C3"]),
    ]
    .join("\n");
    std::fs::write(&record, text + "\n").unwrap();
    let model = dir.join("model.txt");
    let fit = |extra: &[&str]| {
        common::stonelab_json(
            &[
                &[
                    "go",
                    "fit-model",
                    record.to_str().unwrap(),
                    "--out",
                    model.to_str().unwrap(),
                    "--rounds",
                    "3",
                    "--holdout",
                    "0",
                    "--format",
                    "json",
                ][..],
                extra,
            ]
            .concat(),
        )
    };
    let json = fit(&["--skip-moves", "2"]);
    assert_eq!(json["games"], 2);
    assert_eq!(json["train"]["positions"], 3 + 3, "{json}");
    assert_eq!(fit(&[])["train"]["positions"], 5 + 5);
    let parsed = MoveModel::parse(&std::fs::read_to_string(&model).unwrap()).unwrap();
    assert!(parsed
        .provenance
        .iter()
        .any(|l| l.contains("match records")));
    // Every position's candidates get the ownership feature; with the sparse groups at 1 the
    // model holds diamonds and spatial patterns, and says how it was fitted.
    fit(&["--diamond-min", "1", "--spatial-min", "1"]);
    let text = std::fs::read_to_string(&model).unwrap();
    let sparse = MoveModel::parse(&text).unwrap();
    assert!(!sparse.diamonds.is_empty() && !sparse.spatials.is_empty());
    assert!(sparse.uses_owner(), "{text}");
    assert!(text.contains("--diamond-min 1 --spatial-min 1"));
    // A game line that is not a match game is named.
    std::fs::write(&record, format!("{header}\n{{\"number\": 1}}\n")).unwrap();
    common::stonelab_err(
        &[
            "go",
            "fit-model",
            record.to_str().unwrap(),
            "--out",
            model.to_str().unwrap(),
        ],
        "line 2: not a match game",
    );
}

#[test]
fn builtin_model_parses_and_says_where_it_came_from() {
    let model = MoveModel::builtin();
    assert!(
        model.provenance.iter().any(|l| l.contains("fit-model")),
        "{:?}",
        model.provenance
    );
    // It learned something: some 3x3 window and the capture value differ from 1.
    assert!(model.gammas[0].iter().any(|&g| (g - 1.0).abs() > 0.1));
    assert!(model.gammas[1][0] > 1.0);
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let dir = common::temp_dir("go_model_bad");
    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, "{\"game\": 0}\n").unwrap();
    common::stonelab_err(
        &[
            "go",
            "fit-model",
            bad.to_str().unwrap(),
            "--out",
            dir.join("m.txt").to_str().unwrap(),
        ],
        "not a selfplay game",
    );
    let junk = dir.join("junk.txt");
    std::fs::write(&junk, "pat3 zz 1\n").unwrap();
    let o =
        common::stonelab_with_input(&["go", "gtp", "--model", junk.to_str().unwrap()], "quit\n");
    assert_eq!(o.status.code(), Some(2));
    common::stonelab_err(
        &["go", "selfplay", "--out", dir.to_str().unwrap()],
        "not a regular file",
    );
    common::stonelab_err(
        &[
            "go",
            "gtp",
            "--model",
            dir.join("missing.txt").to_str().unwrap(),
        ],
        "cannot read --model",
    );
    common::stonelab_err(&["go", "gtp", "--model-weight", "nan"], "--model-weight");
    common::stonelab_err(
        &[
            "go",
            "selfplay",
            "--model-weight",
            "1e9",
            "--out",
            bad.to_str().unwrap(),
        ],
        "--model-weight",
    );
    for (arg, flag) in [
        ("--rave-equivalence=0", "--rave-equivalence"),
        ("--rave-equivalence=inf", "--rave-equivalence"),
        ("--exploration=-1", "--exploration"),
        ("--amaf-distance=1000", "--amaf-distance"),
    ] {
        common::stonelab_err(&["go", "gtp", arg], flag);
        common::stonelab_err(
            &["go", "selfplay", arg, "--out", bad.to_str().unwrap()],
            flag,
        );
    }
}
