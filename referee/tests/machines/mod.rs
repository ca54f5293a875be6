//! The machines of `tests/cluster.rs`, started on this one by the test: an `sshd` on the
//! loopback with a key made for it (GNU parallel's "remote" machines), and a single-node Slurm
//! (munged, slurmctld, slurmd) with its own configuration. Each stops when dropped.

pub mod procs;

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Where `program` is: on the PATH, or in the sbin folders a user's PATH may lack.
pub fn find(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/sbin", "/usr/local/sbin"].map(PathBuf::from))
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

/// The programs of `programs` that are missing.
pub fn missing(programs: &[&str]) -> Vec<String> {
    programs
        .iter()
        .filter(|p| find(p).is_none())
        .map(|p| p.to_string())
        .collect()
}

/// A port of the loopback that nothing listens on now.
fn free_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").expect("a free port");
    l.local_addr().unwrap().port()
}

fn run(program: &str, args: &[&str]) -> String {
    let out = Command::new(find(program).unwrap_or_else(|| program.into()))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{program}: {e}"));
    assert!(
        out.status.success(),
        "{program} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn spawn(program: &str, args: &[&str], env: &[(&str, &Path)], log: &Path) -> Child {
    let log = std::fs::File::create(log).unwrap();
    Command::new(find(program).unwrap_or_else(|| panic!("{program} is not installed")))
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .spawn()
        .unwrap_or_else(|e| panic!("{program}: {e}"))
}

/// Waits until `ready` holds, at most 30 s; panics with `what` and the log otherwise.
fn wait_for(what: &str, log: &Path, mut ready: impl FnMut() -> bool) {
    let until = Instant::now() + Duration::from_secs(30);
    while !ready() {
        if Instant::now() > until {
            let log = std::fs::read_to_string(log).unwrap_or_default();
            panic!("{what} did not start within 30 s; its log:\n{log}");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn stop(children: &mut [Child]) {
    for c in children.iter_mut().rev() {
        let _ = c.kill();
        let _ = c.wait();
    }
}

/// An sshd on the loopback that lets in this user with a key of its own; two host names,
/// `twixt-a` and `twixt-b`, reach it through [`Sshd::config`].
pub struct Sshd {
    child: Child,
    /// The ssh client configuration that reaches it (`ssh -F CONFIG twixt-a`).
    pub config: PathBuf,
}

impl Sshd {
    pub fn start(dir: &Path) -> Sshd {
        let dir = dir.join("sshd");
        std::fs::create_dir_all(&dir).unwrap();
        for key in ["host_key", "user_key"] {
            let path = dir.join(key);
            run(
                "ssh-keygen",
                &[
                    "-q",
                    "-t",
                    "ed25519",
                    "-N",
                    "",
                    "-f",
                    path.to_str().unwrap(),
                ],
            );
        }
        std::fs::copy(dir.join("user_key.pub"), dir.join("authorized_keys")).unwrap();
        // The privilege separation folder sshd wants when it runs as root.
        let _ = std::fs::create_dir_all("/run/sshd");
        let port = free_port();
        let d = dir.display();
        let sshd_config = dir.join("sshd_config");
        std::fs::write(
            &sshd_config,
            format!(
                "Port {port}\nListenAddress 127.0.0.1\nHostKey {d}/host_key\n\
                 AuthorizedKeysFile {d}/authorized_keys\nPermitRootLogin prohibit-password\n\
                 PasswordAuthentication no\nKbdInteractiveAuthentication no\nUsePAM no\n\
                 StrictModes no\nPidFile {d}/sshd.pid\n"
            ),
        )
        .unwrap();
        let config = dir.join("ssh_config");
        std::fs::write(
            &config,
            format!(
                "Host twixt-a twixt-b\n  HostName 127.0.0.1\n  Port {port}\n  \
                 IdentityFile {d}/user_key\n  IdentitiesOnly yes\n  StrictHostKeyChecking no\n  \
                 UserKnownHostsFile /dev/null\n  LogLevel ERROR\n  BatchMode yes\n"
            ),
        )
        .unwrap();
        let log = dir.join("sshd.log");
        let child = spawn(
            "sshd",
            &["-D", "-e", "-f", sshd_config.to_str().unwrap()],
            &[],
            &log,
        );
        let sshd = Sshd { child, config };
        wait_for("sshd", &log, || {
            Command::new("ssh")
                .args(["-F", sshd.config.to_str().unwrap(), "twixt-a", "true"])
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        });
        sshd
    }

    /// Its process id: the sessions it opens, and the jobs run through them, are below it.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// parallel's `--ssh` for it.
    pub fn ssh_command(&self) -> String {
        format!("ssh -F {}", self.config.display())
    }
}

impl Drop for Sshd {
    fn drop(&mut self) {
        stop(std::slice::from_mut(&mut self.child));
    }
}

/// A single-node Slurm: munged, slurmctld and slurmd, their state, sockets and logs in one
/// folder; its commands find it through `SLURM_CONF` ([`Slurm::env`]).
pub struct Slurm {
    children: Vec<Child>,
    /// The slurm.conf.
    pub conf: PathBuf,
}

impl Slurm {
    pub fn start(dir: &Path) -> Slurm {
        let dir = dir.join("slurm");
        for sub in ["state", "spool"] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
        }
        let d = dir.display().to_string();
        let key = dir.join("munge.key");
        run("mungekey", &["-c", "-k", key.to_str().unwrap()]);
        let mut children = vec![spawn(
            "munged",
            &[
                "-F",
                "-f",
                &format!("--key-file={d}/munge.key"),
                &format!("--socket={d}/munge.sock"),
                &format!("--pid-file={d}/munged.pid"),
                &format!("--seed-file={d}/munged.seed"),
                &format!("--log-file={d}/munged.log"),
            ],
            &[],
            &dir.join("munged.out"),
        )];
        wait_for("munged", &dir.join("munged.out"), || {
            dir.join("munge.sock").exists()
        });
        let host = run("hostname", &["-s"]).trim().to_string();
        let (ctld, node) = (free_port(), free_port());
        let conf = dir.join("slurm.conf");
        // MinJobAge=4 (a finished job's record kept 4 s, not 300): `sbatch --wait` polls every
        // 2 s while that is under twice its pause, which otherwise grows to 8 and 32 s.
        std::fs::write(
            &conf,
            format!(
                "ClusterName=twixt\nSlurmctldHost={host}(127.0.0.1)\nSlurmUser=root\n\
                 SlurmdUser=root\nSlurmctldPort={ctld}\nSlurmdPort={node}\n\
                 AuthType=auth/munge\nAuthInfo=socket={d}/munge.sock\nCredType=cred/munge\n\
                 StateSaveLocation={d}/state\nSlurmdSpoolDir={d}/spool\n\
                 SlurmctldPidFile={d}/slurmctld.pid\nSlurmdPidFile={d}/slurmd.pid\n\
                 SlurmctldLogFile={d}/slurmctld.log\nSlurmdLogFile={d}/slurmd.log\n\
                 ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\n\
                 SchedulerType=sched/backfill\nSelectType=select/cons_tres\n\
                 SelectTypeParameters=CR_Core\nReturnToService=2\nMpiDefault=none\n\
                 JobAcctGatherType=jobacct_gather/none\nMinJobAge=4\n\
                 SchedulerParameters=batch_sched_delay=0,sched_min_interval=100000\n\
                 AccountingStorageType=accounting_storage/none\n\
                 NodeName={host} NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN\n\
                 PartitionName=twixt Nodes={host} Default=YES MaxTime=INFINITE State=UP\n"
            ),
        )
        .unwrap();
        let env = [("SLURM_CONF", conf.as_path())];
        children.push(spawn(
            "slurmctld",
            &["-D"],
            &env,
            &dir.join("slurmctld.out"),
        ));
        children.push(spawn("slurmd", &["-D"], &env, &dir.join("slurmd.out")));
        let slurm = Slurm { children, conf };
        wait_for("slurm", &dir.join("slurmctld.log"), || {
            Command::new("sinfo")
                .args(["-h", "-o", "%T"])
                .env("SLURM_CONF", &slurm.conf)
                .output()
                .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "idle")
        });
        slurm
    }
}

impl Drop for Slurm {
    fn drop(&mut self) {
        stop(&mut self.children);
    }
}
