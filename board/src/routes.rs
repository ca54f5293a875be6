//! The HTTP API the page speaks, one handler a route. Every body is read under a size limit and
//! parsed into a request type that refuses unknown fields; every value is checked before it
//! reaches a board. Each handler answers the board's whole view (or the file asked for).

use crate::guard;
use crate::library;
use crate::opponent::Clock;
use crate::page;
use crate::registry::lock;
use crate::tab::{Tab, View};
use crate::{ApiError, App};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, Request, State};
use axum::http::{header, StatusCode};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use http_body_util::BodyExt;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::time::Duration;
use twixt::cell::{Cell, Player};
use twixt::position::Move;
use twixt_referee::turn::shorten;

/// The largest JSON request body.
pub const JSON_LIMIT: usize = 64 * 1024;
/// The largest file the page may send (a results file of thousands of games).
pub const UPLOAD_LIMIT: usize = 16 * 1024 * 1024;
/// How many uploads are read and decoded at once: each holds its file and what is read of it,
/// so this many bound their memory together. The others wait their turn.
pub const UPLOADS_AT_ONCE: usize = 2;
/// The longest an upload waits for its turn before a 429.
pub const UPLOAD_WAIT: Duration = Duration::from_secs(30);
/// The analysis's time limit when none is asked for, and the longest one may ask for (ms).
pub const ANALYSIS_MS: (u64, u64, u64) = (100, 30_000, 120_000);

type Answer = Result<Json<View>, ApiError>;

/// The routes, behind the [`guard`]; no answer may be framed ([`page::unframed`]).
pub fn router(app: App) -> Router {
    let board = "/api/boards/{id}";
    Router::new()
        .route("/", get(page::index))
        .route("/board.js", get(page::script))
        .route("/moves.js", get(page::moves_script))
        .route("/graph.js", get(page::graph_script))
        .route("/losses.js", get(page::losses_script))
        .route("/board.css", get(page::style))
        .route("/api/boards", post(create))
        .route(board, get(view))
        .route(&format!("{board}/new"), post(new_game))
        .route(&format!("{board}/play"), post(play))
        .route(&format!("{board}/takeback"), post(take_back))
        .route(&format!("{board}/goto"), post(goto))
        .route(&format!("{board}/bot"), post(bot))
        .route(&format!("{board}/setup"), post(set_up))
        .route(&format!("{board}/analysis"), post(analyse).delete(stop))
        .route(
            &format!("{board}/evaluation"),
            post(evaluate).delete(stop_evaluation),
        )
        .route(&format!("{board}/moves"), post(moves))
        .route(&format!("{board}/upload"), post(upload))
        .route(&format!("{board}/games"), get(games))
        .route(&format!("{board}/open"), post(open))
        .route(&format!("{board}/losses"), post(losses))
        .route(&format!("{board}/turn"), get(turn))
        .route(&format!("{board}/record"), get(record))
        .route(&format!("{board}/node"), post(node))
        .route(&format!("{board}/promote"), post(promote))
        .route(&format!("{board}/delete"), post(delete))
        .route(&format!("{board}/line"), post(line))
        .route(&format!("{board}/tree"), get(tree_text))
        .fallback(unknown)
        .method_not_allowed_fallback(not_allowed)
        .layer(DefaultBodyLimit::max(JSON_LIMIT))
        .layer(middleware::from_fn_with_state(
            app.guard.clone(),
            guard::check,
        ))
        .layer(middleware::map_response(page::unframed))
        .with_state(app)
}

async fn unknown() -> ApiError {
    ApiError::not_found("no such page or API route")
}

async fn not_allowed() -> ApiError {
    ApiError {
        status: StatusCode::METHOD_NOT_ALLOWED,
        message: "this route does not take that method".into(),
    }
}

/// The request body as `T`, or why not.
fn parse<T: DeserializeOwned>(body: Result<Bytes, BytesRejection>) -> Result<T, ApiError> {
    let bytes = body?;
    serde_json::from_slice(&bytes).map_err(|e| {
        ApiError::bad(format!(
            "the request body is not what this route takes: {e}"
        ))
    })
}

fn player(n: u8, what: &str) -> Result<Player, ApiError> {
    Player::from_index(n.into())
        .ok_or_else(|| ApiError::bad(format!("{what} must be 0 or 1, not {n}")))
}

fn cell(text: &str) -> Result<Cell, ApiError> {
    text.parse()
        .map_err(|e| ApiError::bad(format!("{:?} is not a hole: {e}", shorten(text))))
}

fn in_range(ms: u64, (lo, hi): (u64, u64), what: &str) -> Result<u64, ApiError> {
    if (lo..=hi).contains(&ms) {
        Ok(ms)
    } else {
        Err(ApiError::bad(format!(
            "{what} must be {lo} to {hi} ms, not {ms}"
        )))
    }
}

async fn create(State(app): State<App>) -> Result<(StatusCode, Json<serde_json::Value>), ApiError> {
    let (id, board) = app.boards.create(&app.kind)?;
    let view = lock(&board).view();
    Ok((
        StatusCode::CREATED,
        Json(serde_json::json!({ "id": id, "view": view })),
    ))
}

async fn view(State(app): State<App>, Path(id): Path<String>) -> Answer {
    Ok(Json(lock(&app.boards.get(&id)?).view()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    /// The person's seat; none: no bot.
    seat: Option<u8>,
    /// The bot's time a turn; none: CodinGame's clocks.
    ms: Option<u64>,
}

async fn new_game(
    State(app): State<App>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Answer {
    let req: NewGame = parse(body)?;
    let seat = req.seat.map(|s| player(s, "seat")).transpose()?;
    let clock = match req.ms {
        Some(ms) => Clock::Ms(in_range(ms, Clock::RANGE, "the bot's time")?),
        None => Clock::CodinGame,
    };
    let board = app.boards.get(&id)?;
    let mut b = lock(&board);
    b.new_game(&board, seat, clock, &app.slots)?;
    Ok(Json(b.view()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Play {
    #[serde(rename = "move")]
    mv: String,
}

async fn play(
    State(app): State<App>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Answer {
    let req: Play = parse(body)?;
    let mv: Move = req
        .mv
        .parse()
        .map_err(|e| ApiError::bad(format!("{:?} is not a move: {e}", shorten(&req.mv))))?;
    let board = app.boards.get(&id)?;
    let mut b = lock(&board);
    b.play(&board, mv, &app.slots)?;
    Ok(Json(b.view()))
}

async fn take_back(State(app): State<App>, Path(id): Path<String>) -> Answer {
    let board = app.boards.get(&id)?;
    let mut b = lock(&board);
    b.take_back()?;
    Ok(Json(b.view()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Goto {
    ply: usize,
}

async fn goto(
    State(app): State<App>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Answer {
    let req: Goto = parse(body)?;
    let board = app.boards.get(&id)?;
    let mut b = lock(&board);
    b.goto(req.ply)?;
    Ok(Json(b.view()))
}

async fn bot(State(app): State<App>, Path(id): Path<String>) -> Answer {
    let board = app.boards.get(&id)?;
    let mut b = lock(&board);
    b.ask_bot(&board, &app.slots)?;
    Ok(Json(b.view()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SetUp {
    /// The pegs in the order they are placed: hole and player.
    pegs: Vec<(String, u8)>,
    to_move: u8,
}

async fn set_up(
    State(app): State<App>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Answer {
    let req: SetUp = parse(body)?;
    if req.pegs.len() > 140 {
        return Err(ApiError::bad(format!(
            "{} pegs: the board has 140 holes",
            req.pegs.len()
        )));
    }
    let mut placed = Vec::with_capacity(req.pegs.len());
    for (c, p) in &req.pegs {
        placed.push((cell(c)?, player(*p, "a peg's player")?));
    }
    let to_move = player(req.to_move, "to_move")?;
    let board = app.boards.get(&id)?;
    let mut b = lock(&board);
    b.set_up(placed, to_move)?;
    Ok(Json(b.view()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Analyse {
    /// The time limit; none: the default.
    ms: Option<u64>,
}

async fn analyse(
    State(app): State<App>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Answer {
    let req: Analyse = parse(body)?;
    let (lo, default, hi) = ANALYSIS_MS;
    let ms = in_range(req.ms.unwrap_or(default), (lo, hi), "the analysis's time")?;
    let board = app.boards.get(&id)?;
    let mut b = lock(&board);
    b.analyse(Duration::from_millis(ms), &app.slots)?;
    Ok(Json(b.view()))
}

async fn evaluate(State(app): State<App>, Path(id): Path<String>) -> Answer {
    let board = app.boards.get(&id)?;
    let mut b = lock(&board);
    b.evaluate(crate::evaluation::PLAYOUTS, &app.slots)?;
    Ok(Json(b.view()))
}

async fn stop_evaluation(State(app): State<App>, Path(id): Path<String>) -> Answer {
    let board = app.boards.get(&id)?;
    let mut b = lock(&board);
    b.stop_evaluation();
    Ok(Json(b.view()))
}

async fn stop(State(app): State<App>, Path(id): Path<String>) -> Answer {
    let board = app.boards.get(&id)?;
    let mut b = lock(&board);
    b.stop_analysis();
    Ok(Json(b.view()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Moves {
    moves: String,
}

async fn moves(
    State(app): State<App>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Answer {
    let req: Moves = parse(body)?;
    let game = library::move_list(&req.moves).map_err(ApiError::bad)?;
    let lib = library::Library::pasted(game);
    let board = app.boards.get(&id)?;
    let mut b = lock(&board);
    b.load(lib)?;
    Ok(Json(b.view()))
}

/// A file the page sends as the body: a results file, a record, or a move list. At most
/// [`UPLOADS_AT_ONCE`] are taken in at once, body and decoding: the others wait (their bodies
/// unread), [`UPLOAD_WAIT`] at most, then a 429. It is decoded on a blocking thread:
/// megabytes of lines must not hold up an async worker.
async fn upload(
    State(app): State<App>,
    Path(id): Path<String>,
    request: Request,
) -> Result<Response, ApiError> {
    let board = match app.boards.get(&id) {
        Ok(board) => board,
        Err(e) => {
            discard(request, UPLOAD_LIMIT).await;
            return Err(e);
        }
    };
    let turn = tokio::time::timeout(UPLOAD_WAIT, app.uploads.acquire()).await;
    let Ok(Ok(_turn)) = turn else {
        discard(request, UPLOAD_LIMIT).await;
        return Err(ApiError::busy(format!(
            "the file must wait: this server reads {UPLOADS_AT_ONCE} files at once and others \
             have been read for {} s; try again in a moment",
            UPLOAD_WAIT.as_secs()
        )));
    };
    let bytes = whole_body(request, UPLOAD_LIMIT).await?;
    let lib = tokio::task::spawn_blocking(move || library::read_file(bytes))
        .await
        .map_err(|e| ApiError::bad(format!("the file could not be read: the reader {e}")))?
        .map_err(ApiError::bad)?;
    let mut b = lock(&board);
    b.load(lib)?;
    Ok(games_answer(&b, true))
}

/// The body of `request`, at most `limit` bytes (413 past them), read into one buffer of its
/// announced length: a body gathered in pieces and then joined takes twice its size at once.
async fn whole_body(request: Request, limit: usize) -> Result<Vec<u8>, ApiError> {
    let too_large = || ApiError {
        status: StatusCode::PAYLOAD_TOO_LARGE,
        message: format!(
            "the request body could not be read: it is over the limit of {} MiB",
            limit >> 20
        ),
    };
    let announced = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<usize>().ok());
    if announced.is_some_and(|n| n > limit) {
        return Err(too_large());
    }
    let mut body = request.into_body();
    let mut bytes = Vec::with_capacity(announced.unwrap_or(0));
    while let Some(frame) = body.frame().await {
        let frame =
            frame.map_err(|e| ApiError::bad(format!("the request body could not be read: {e}")))?;
        if let Ok(data) = frame.into_data() {
            if bytes.len() + data.len() > limit {
                return Err(too_large());
            }
            bytes.extend_from_slice(&data);
        }
    }
    Ok(bytes)
}

/// Reads the body of `request` to its end, or past `limit` bytes, keeping nothing: a client
/// still sending its file when the answer comes would not see it.
async fn discard(request: Request, limit: usize) {
    let mut body = request.into_body();
    let mut seen = 0;
    while let Some(Ok(frame)) = body.frame().await {
        seen += frame.data_ref().map_or(0, |d| d.len());
        if seen > limit {
            return;
        }
    }
}

/// The games loaded, the lines left out (the first few named, `left_out_more` the rest), and
/// the board's view if asked for. Written straight from the board's library: a file's list of
/// twenty thousand games is not copied on the way.
#[derive(Serialize)]
struct GamesAnswer<'a> {
    games: Vec<&'a library::Summary>,
    left_out: &'a [String],
    left_out_more: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    view: Option<View>,
}

/// The [`GamesAnswer`] of board `b`, with its view if `with_view`.
fn games_answer(b: &Tab, with_view: bool) -> Response {
    let lib = b.library();
    Json(GamesAnswer {
        games: lib.summaries().collect(),
        left_out: &lib.left_out.named,
        left_out_more: lib.left_out.more,
        view: with_view.then(|| b.view()),
    })
    .into_response()
}

async fn games(State(app): State<App>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let board = app.boards.get(&id)?;
    let answer = games_answer(&lock(&board), false);
    Ok(answer)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Open {
    /// The game's number in the list, from 1.
    game: usize,
}

async fn open(
    State(app): State<App>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Answer {
    let req: Open = parse(body)?;
    let board = app.boards.get(&id)?;
    let mut b = lock(&board);
    b.open(req.game)?;
    Ok(Json(b.view()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Losses {
    /// The side (a bot's command, or part of it); none: only the sides are listed.
    ours: Option<String>,
}

async fn losses(
    State(app): State<App>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<crate::losses::LossesView>, ApiError> {
    let req: Losses = parse(body)?;
    if req.ours.as_deref() == Some("") {
        return Err(ApiError::bad(
            "choose a side: an empty name names every bot",
        ));
    }
    let board = app.boards.get(&id)?;
    let b = lock(&board);
    crate::losses::losses(b.library(), req.ours.as_deref()).map(Json)
}

fn download(text: String, content_type: &'static str, name: &'static str) -> Response {
    let disposition = format!("attachment; filename=\"{name}\"");
    (
        [
            (header::CONTENT_TYPE, content_type.to_string()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response()
}

async fn turn(State(app): State<App>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let text = lock(&app.boards.get(&id)?).turn_input();
    Ok(download(text, "text/plain; charset=utf-8", "turn.txt"))
}

/// A node of the tree: its path, the index of the move chosen at every ply ([`crate::tree`]).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NodeAt {
    node: Vec<usize>,
}

/// What the variation routes do to the node they name.
type NodeChange = fn(&mut Tab, &[usize]) -> Result<(), ApiError>;

/// Changes board `id` by `change` at the node the body names.
fn at_node(app: &App, id: &str, body: Result<Bytes, BytesRejection>, change: NodeChange) -> Answer {
    let req: NodeAt = parse(body)?;
    let board = app.boards.get(id)?;
    let mut b = lock(&board);
    change(&mut b, &req.node)?;
    Ok(Json(b.view()))
}

async fn node(
    State(app): State<App>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Answer {
    at_node(&app, &id, body, Tab::goto_node)
}

async fn promote(
    State(app): State<App>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Answer {
    at_node(&app, &id, body, Tab::promote)
}

async fn delete(
    State(app): State<App>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Answer {
    at_node(&app, &id, body, Tab::delete)
}

/// A line to play out from a node.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    node: Vec<usize>,
    moves: Vec<String>,
}

async fn line(
    State(app): State<App>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Answer {
    let req: Line = parse(body)?;
    let mut moves = Vec::with_capacity(req.moves.len().min(200));
    for (i, m) in req.moves.iter().enumerate() {
        let mv: Move = m.parse().map_err(|e| {
            ApiError::bad(format!(
                "move {} {:?} is not a move: {e}",
                i + 1,
                shorten(m)
            ))
        })?;
        moves.push(mv);
    }
    let board = app.boards.get(&id)?;
    let mut b = lock(&board);
    b.play_line(&req.node, &moves)?;
    Ok(Json(b.view()))
}

async fn tree_text(State(app): State<App>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let text = lock(&app.boards.get(&id)?).text()?;
    Ok(download(
        text,
        "text/plain; charset=utf-8",
        "variations.txt",
    ))
}

async fn record(State(app): State<App>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let text = lock(&app.boards.get(&id)?).record()?;
    Ok(download(text, "application/x-ndjson", "game.jsonl"))
}
