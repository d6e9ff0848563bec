export default function Index() {
  return <h1>Accueil</h1>;
}
