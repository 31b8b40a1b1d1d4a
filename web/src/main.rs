fn main() {
    web::start();
}
