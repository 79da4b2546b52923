//! A loopback server standing in for all four feeds at once: their paths do not overlap
//! (`/q=…`, `/list=…`, `/api/qt/stock/get?…`, `/api/v3/ticker/24hr?…`). Each route answers a
//! canned status and body; every request is recorded with its Referer.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::response::Response;
use tokio::sync::oneshot;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    pub path: String,
    pub referer: Option<String>,
}

#[derive(Default)]
struct Routes {
    replies: HashMap<String, (u16, Vec<u8>)>,
    seen: Vec<Seen>,
}

type Shared = Arc<Mutex<Routes>>;

pub struct FeedServer {
    addr: SocketAddr,
    routes: Shared,
    _stop: oneshot::Sender<()>,
}

impl FeedServer {
    pub async fn start() -> FeedServer {
        let routes: Shared = Arc::default();
        let app = axum::Router::new()
            .fallback(reply)
            .with_state(routes.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        tokio::spawn(async move {
            let _ = axum::serve(listener, app)
                .with_graceful_shutdown(async {
                    let _ = stopped.await;
                })
                .await;
        });
        FeedServer {
            addr,
            routes,
            _stop: stop,
        }
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Answer `path_and_query` with `status` and `body` from now on.
    pub fn serve(&self, path_and_query: &str, status: u16, body: Vec<u8>) {
        let mut routes = self.routes.lock().unwrap();
        routes
            .replies
            .insert(path_and_query.to_string(), (status, body));
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.routes.lock().unwrap().seen.clone()
    }

    /// The paths asked, in order.
    pub fn paths(&self) -> Vec<String> {
        self.seen().into_iter().map(|s| s.path).collect()
    }
}

async fn reply(State(routes): State<Shared>, uri: Uri, headers: HeaderMap) -> Response {
    let path = uri
        .path_and_query()
        .map_or_else(|| uri.path().to_string(), |pq| pq.as_str().to_string());
    let referer = headers
        .get(header::REFERER)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let (status, body) = {
        let mut routes = routes.lock().unwrap();
        routes.seen.push(Seen {
            path: path.clone(),
            referer,
        });
        routes
            .replies
            .get(&path)
            .cloned()
            .unwrap_or((404, b"no such route".to_vec()))
    };
    Response::builder()
        .status(StatusCode::from_u16(status).unwrap())
        .header(header::CONTENT_TYPE, "text/plain; charset=GBK")
        .body(Body::from(body))
        .unwrap()
}
