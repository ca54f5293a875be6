//! Every refusal is an HTTP 4xx answer with the reason in words, as JSON `{"error": ...}`:
//! nothing a request holds makes the server answer 5xx or panic.

use axum::extract::rejection::BytesRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

/// A refused request: its status and why.
#[derive(Debug)]
pub struct ApiError {
    /// A 4xx status.
    pub status: StatusCode,
    /// The reason, for the page to show.
    pub message: String,
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    /// 400: the request is malformed or asks what the rules refuse.
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 403: the request comes from elsewhere than the board's own page.
    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, message)
    }

    /// 404: no such board or game.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    /// 409: not now (the bot is thinking, the game is over).
    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, message)
    }

    /// 415: the body is not of the type the route takes.
    pub fn unsupported(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNSUPPORTED_MEDIA_TYPE, message)
    }

    /// 429: the server runs as much as it will.
    pub fn busy(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::TOO_MANY_REQUESTS, message)
    }
}

impl From<BytesRejection> for ApiError {
    /// A body that could not be read: too large (413) or cut off (400), with axum's words.
    fn from(r: BytesRejection) -> ApiError {
        let status = if r.status().is_client_error() {
            r.status()
        } else {
            StatusCode::BAD_REQUEST
        };
        ApiError::new(
            status,
            format!("the request body could not be read: {}", r.body_text()),
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message });
        (self.status, Json(body)).into_response()
    }
}
