fn main() {
    ragtrace_web::mount();
}
